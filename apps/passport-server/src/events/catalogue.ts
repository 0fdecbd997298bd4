import { accountEvents } from './catalogue/account';
import { enterpriseEvents } from './catalogue/enterprise';
import { oauthAppEvents } from './catalogue/oauth-app';
import { operatorEvents } from './catalogue/operator';
import { managerEvents, organisationEvents } from './catalogue/organisation';
import { passkeyEvents } from './catalogue/passkey';
import { webhookEvents } from './catalogue/webhook';
import type { DataOf, EventDefinition, EventMap } from './define';

/**
 * Every event type the server emits, one list per area. A type's name never changes meaning: a data
 * change a consumer would notice gets a new version (docs/operations.md, "Events").
 */
export const EVENT_DEFINITIONS = [
  ...accountEvents,
  ...passkeyEvents,
  ...organisationEvents,
  ...managerEvents,
  ...enterpriseEvents,
  ...operatorEvents,
  ...webhookEvents,
  ...oauthAppEvents,
] as const;

type Catalogue = EventMap<typeof EVENT_DEFINITIONS>;
export type EventType = keyof Catalogue;
export type EventData<T extends EventType> = DataOf<Catalogue[T]>;

export const EVENTS: ReadonlyMap<string, EventDefinition> = new Map(
  EVENT_DEFINITIONS.map((definition) => [definition.type, definition]),
);

/** Who caused an event. */
export type EventActor =
  | { kind: 'person'; userId: string }
  | { kind: 'identity'; userId: string; subjectId: string; deputyId: string }
  | { kind: 'apiKey'; keyId: string }
  | { kind: 'anonymous' }
  | { kind: 'system' };

/** An event as an operation emits it; the outbox adds its id, position, version and time. */
export interface DomainEvent<T extends EventType = EventType> {
  type: T;
  /**
   * The stream it is ordered in (`user:<id>`, `subject:<id>`): a consumer sees the events of one stream
   * in the order they committed.
   */
  stream: string;
  actor: EventActor;
  /** The organisation it happened in, when any: its managers' audit log reads by this. */
  subjectId?: string | null;
  /** The person it happened to (the actor's own events name the actor): their activity reads by this. */
  targetUserId?: string | null;
  data: EventData<T>;
}
