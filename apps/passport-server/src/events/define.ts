import type { Static, TObject } from 'typebox';

/**
 * One event type: a stable dotted name, a version that grows when the data's shape changes in a way a
 * consumer would notice, and the data's TypeBox schema (the one source of its wire shape, for the audit
 * log, webhooks and any later export).
 */
export interface EventDefinition<Name extends string = string, Data extends TObject = TObject> {
  readonly type: Name;
  readonly version: number;
  readonly summary: string;
  readonly data: Data;
  /**
   * The data's fields that are the target person's own name or words (their name in an organisation,
   * what they called a passkey): erasure of that person replaces them with `[erased]`. Identifiers
   * (e-mail addresses, phone numbers) are erased wherever they appear, without being named here.
   */
  readonly personal?: readonly (keyof Static<Data> & string)[];
}

export const defineEvent = <Name extends string, Data extends TObject>(
  definition: EventDefinition<Name, Data>,
): EventDefinition<Name, Data> => definition;

/** A list of definitions as a map from type to definition. */
export type EventMap<Definitions extends readonly EventDefinition[]> = {
  [D in Definitions[number] as D['type']]: D;
};

export type DataOf<D extends EventDefinition> = Static<D['data']>;
