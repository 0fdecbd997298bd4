import { Type } from 'typebox';
import { defineEvent } from '../define';

/** What happens to a person's account: sign-ins, sessions, sign-in methods, profile, cancellation. */
export const accountEvents = [
  defineEvent({
    type: 'account.signed_in',
    version: 1,
    summary: 'A person signed in.',
    data: Type.Object({ method: Type.String(), newDevice: Type.Boolean() }),
  }),
] as const;
