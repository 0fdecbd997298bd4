import { Type } from 'typebox';
import { CommonQuery, MixMode, webResponses } from './common';

/** Organisation mode, in every logout's query or form (docs/organisations.md). */
export const SubjectAid = Type.Optional(
  Type.String({
    maxLength: 64,
    description:
      'organisation mode: the organisation (sec_subject_uid) to leave; the session goes back to the personal identity',
  }),
);

export const LogoutQuery = Type.Object(
  {
    ...CommonQuery.properties,
    next: Type.Optional(
      Type.String({ maxLength: 2048, description: 'where to go after; same-origin or allow-listed only' }),
    ),
    not_redirect: Type.Optional(
      Type.String({ maxLength: 8, description: '1: answer JSON instead of redirecting' }),
    ),
    subject_aid: SubjectAid,
  },
  { additionalProperties: true },
);

/** The form a POST logout may carry: the same next as the query, bounded like it. */
export const LogoutBody = Type.Object(
  {
    next: Type.Optional(
      Type.String({ maxLength: 2048, description: 'where to go after; same-origin or allow-listed only' }),
    ),
    subject_aid: SubjectAid,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const LogoutData = Type.Object({ next: Type.String({ description: 'the validated next address' }) });

export const logoutSchema = {
  summary: 'Sign out: kills the session; GET redirects to next unless not_redirect=1',
  tags: ['account'],
  querystring: LogoutQuery,
  response: { ...webResponses(LogoutData), 302: Type.Null({ description: 'redirect to next' }) },
};

/** POST logout: the same contract, with its form validated (a GET route cannot declare a body). */
export const logoutPostSchema = {
  ...logoutSchema,
  summary: 'Sign out: kills the session and answers the validated next address',
  body: LogoutBody,
};
