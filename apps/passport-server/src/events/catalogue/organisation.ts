import { Type } from 'typebox';
import { defineEvent } from '../define';

/** What happens in an organisation (a subject): its life, its members, its roles. */
export const organisationEvents = [
  defineEvent({
    type: 'organisation.created',
    version: 1,
    summary: 'An organisation was created; its creator is its manager.',
    data: Type.Object({ name: Type.String() }),
  }),
] as const;
