import { Type } from 'typebox';
import { PassportError } from '../../errors';
import type { EventData, EventType } from '../../events/catalogue';
import { type CallerOf, caller, type OperationContext } from '../define';

/**
 * What every SCIM operation shares (docs/scim.md): its caller, an organisation's API key holding the
 * `scim` scope, and the events it records in that organisation's stream with the key as actor.
 */

export const scimCaller = caller.apiKey('scim', { organisation: true });
export type ScimContext = OperationContext<CallerOf<typeof scimCaller>>;

/** The organisation the key provisions; a deployment's key has none to act in. */
export function organisationOf(ctx: ScimContext): string {
  const { subjectId } = ctx.caller;
  if (subjectId === null) throw new PassportError('insufficientScope', { reason: 'organisation' });
  return subjectId;
}

/** An event in the organisation's stream, caused by its key, about `targetUserId` when one person. */
export function emitScim<T extends EventType>(
  ctx: ScimContext,
  type: T,
  data: EventData<T>,
  targetUserId: string | null,
): void {
  const subjectId = organisationOf(ctx);
  ctx.emit({
    type,
    stream: `subject:${subjectId}`,
    actor: { kind: 'apiKey', keyId: ctx.caller.keyId },
    subjectId,
    targetUserId,
    data,
  });
}

/** A SCIM resource: its attributes are the client's, so the schema holds every member it is given. */
export const ScimResource = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    meta: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

export const ScimListResponse = Type.Object({
  schemas: Type.Array(Type.String()),
  totalResults: Type.Integer(),
  startIndex: Type.Integer(),
  itemsPerPage: Type.Integer(),
  Resources: Type.Array(ScimResource),
});

/** What the list calls take (RFC 7644 §3.4.2): the filter and the page, 1-based. */
export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 1000 })),
  startIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  attributes: Type.Optional(Type.String({ maxLength: 1000 })),
  excludedAttributes: Type.Optional(Type.String({ maxLength: 1000 })),
});

const Id = Type.String({ minLength: 1, maxLength: 64 });
/** The `If-Match` header of a write: the versions (ETags) it may change. */
const IfMatch = Type.Optional(Type.String({ maxLength: 1000 }));

export const ResourceId = Type.Object({ id: Id });
/** A write to one resource: its id, the `If-Match` header, and for PUT and PATCH the body. */
export const ResourceWrite = Type.Object({ id: Id, ifMatch: IfMatch, body: Type.Optional(Type.Unknown()) });
export const ResourceDelete = Type.Object({ id: Id, ifMatch: IfMatch });

/** A body SCIM sends: an object whose members the operation reads and checks itself. */
export const ScimBody = Type.Object({}, { additionalProperties: true });

export const Deleted = Type.Object({ deleted: Type.Boolean() });
