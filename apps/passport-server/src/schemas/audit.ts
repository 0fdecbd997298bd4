import { Type } from 'typebox';
import { CommonQuery } from './common';

const UserId = Type.String({ minLength: 1, maxLength: 64 });

const Actor = Type.Object(
  {
    kind: Type.Union([
      Type.Literal('person'),
      Type.Literal('identity'),
      Type.Literal('apiKey'),
      Type.Literal('anonymous'),
      Type.Literal('system'),
    ]),
    userId: Type.Optional(Type.String()),
    subjectId: Type.Optional(Type.String()),
    deputyId: Type.Optional(Type.String()),
    keyId: Type.Optional(Type.String()),
  },
  { description: 'who caused it' },
);

/** One audit entry: an event as the audit log keeps it. */
export const AuditEntry = Type.Object({
  cursor: Type.String({ description: 'pass as `cursor` for the entries older than this one' }),
  id: Type.String({ description: 'the event id' }),
  type: Type.String({ description: 'the event type, e.g. account.signed_in' }),
  version: Type.Integer({ description: 'the version of the type’s data' }),
  actor: Actor,
  subject_id: Type.Union([Type.String(), Type.Null()], { description: 'the organisation, when any' }),
  target_user_id: Type.Union([Type.String(), Type.Null()], { description: 'whom it happened to' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'the event’s data (its type’s schema)' }),
  ip: Type.Union([Type.String(), Type.Null()], { description: 'the client address; null after erasure' }),
  occurred_at: Type.Integer({ description: 'ms since the epoch' }),
});

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry, { description: 'newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'the next (older) page, or null' }),
});

/** An organisation's page also names its members: deputy names by user id (removed members are absent). */
export const OrganisationAuditPage = Type.Object({
  entries: AuditPage.properties.entries,
  next_cursor: AuditPage.properties.next_cursor,
  names: Type.Record(Type.String(), Type.String(), { description: 'member names by user id' }),
});

const Page = {
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'from next_cursor' })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

const Filters = {
  type: Type.Optional(
    Type.String({
      pattern: '^[a-z][a-z0-9_.]{0,63}$',
      description: 'an event type, or a prefix ending in "." (organisation.)',
    }),
  ),
  actor_user_id: Type.Optional(UserId),
  target_user_id: Type.Optional(UserId),
  from: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 8.64e15, description: 'ms since the epoch, inclusive' }),
  ),
  to: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 8.64e15, description: 'ms since the epoch, exclusive' }),
  ),
};

const SubjectUid = Type.String({ minLength: 1, maxLength: 64 });

export const schemas = {
  accountActivity: {
    summary: 'The signed-in person’s own security activity: sign-ins (new devices), sign-in method changes',
    tags: ['account'],
    querystring: Type.Intersect([CommonQuery, Type.Object({ ...Page, type: Filters.type })]),
  },
  operatorAudit: {
    summary: 'Operators (OPERATOR_USER_IDS): every audit entry, filtered',
    tags: ['operator'],
    querystring: Type.Intersect([
      CommonQuery,
      Type.Object({ ...Page, ...Filters, subject_id: Type.Optional(SubjectUid) }),
    ]),
  },
  auditList: {
    summary: 'The organisation’s audit log (audit:read): who did what to whom, newest first',
    tags: ['affiliate'],
    querystring: Type.Intersect([
      CommonQuery,
      Type.Object({ ...Page, ...Filters, sec_subject_uid: SubjectUid }),
    ]),
  },
  auditExport: {
    summary:
      'The organisation’s audit log (audit:read) as a CSV or JSON file, filtered (at most 10,000 entries)',
    tags: ['affiliate'],
    querystring: Type.Intersect([
      CommonQuery,
      Type.Object({
        ...Filters,
        sec_subject_uid: SubjectUid,
        format: Type.Union([Type.Literal('csv'), Type.Literal('json')], { default: 'csv' }),
      }),
    ]),
  },
};
