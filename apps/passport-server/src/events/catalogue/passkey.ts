import { Type } from 'typebox';
import { defineEvent } from '../define';

const PasskeyId = Type.String({ description: 'the passkey’s id in the account’s list' });
/** The person's own name for it: in their own activity only. */
const Name = Type.String({ description: 'the name the person gave it' });

/**
 * The account's passkeys (docs/factors.md): the person as actor and target, in their stream. No event
 * carries a credential id, a public key or the user handle. A sign-in with a passkey is
 * `account.signed_in` with method `passkey`.
 */
export const passkeyEvents = [
  defineEvent({
    type: 'passkey.added',
    version: 1,
    summary: 'A passkey was added to the account.',
    data: Type.Object({
      passkeyId: PasskeyId,
      name: Name,
      deviceType: Type.Union([Type.Literal('singleDevice'), Type.Literal('multiDevice')]),
      backedUp: Type.Boolean(),
    }),
    personal: ['name'],
  }),
  defineEvent({
    type: 'passkey.renamed',
    version: 1,
    summary: 'A passkey of the account was renamed.',
    data: Type.Object({ passkeyId: PasskeyId, name: Name, previous: Name }),
    personal: ['name', 'previous'],
  }),
  defineEvent({
    type: 'passkey.removed',
    version: 1,
    summary: 'A passkey was removed from the account.',
    data: Type.Object({ passkeyId: PasskeyId, name: Name }),
    personal: ['name'],
  }),
] as const;
