import type { EventActor } from '../../events/catalogue';
import type { CallerOf, OperationContext } from '../define';

/**
 * Who runs a management operation: a back end's API key, or an operator in the admin console (the same
 * operations, declared for a person by src/operations/operator/console.ts). The operations read who acts
 * and what they are limited to through these, never from the key's fields.
 */
export type ManagementCaller = CallerOf<{ kind: 'apiKey'; scope: string }> | CallerOf<{ kind: 'person' }>;
export type ManagementContext = OperationContext<ManagementCaller>;

/** The events' actor: the key, or the operator. */
export const actorOf = (caller: ManagementCaller): EventActor =>
  caller.kind === 'apiKey'
    ? { kind: 'apiKey', keyId: caller.keyId }
    : { kind: 'person', userId: caller.user.id };

/** The organisation the caller is limited to: an organisation's key's; null for a deployment's key or an operator. */
export const limitedTo = (caller: ManagementCaller): string | null =>
  caller.kind === 'apiKey' ? caller.subjectId : null;
