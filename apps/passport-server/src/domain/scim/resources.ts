import type { Kysely, Selectable } from 'kysely';
import { ScimError as PatchError, patchBodyValidation, type ScimPatchOperation, scimPatch } from 'scim-patch';
import { type Filter, filter as matches, parse } from 'scim2-parse-filter';
import { onPostgres } from '../../db/dialect';
import type { Database, ScimUsersTable } from '../../db/schema';
import { PassportError } from '../../errors';

/**
 * SCIM 2.0 (RFC 7643/7644) resources of one organisation (docs/scim.md): a User is an account with a
 * membership, a Group is a role. The wire shapes, the filter (scim2-parse-filter) and PATCH
 * (scim-patch) live here; the operations (src/operations/scim/) change the rows through their `tx`.
 */

type Tx = Kysely<Database>;
export type ScimUserRow = Selectable<ScimUsersTable>;

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
} as const;

/** The most resources one page answers; a larger `count` is cut to it (RFC 7644 §3.4.2.4). */
export const MAX_PAGE = 200;

/** The `scimType` of an error (RFC 7644 Table 9). */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'noTarget'
  | 'mutability'
  | 'uniqueness'
  | 'tooMany';

/** A 400 in SCIM's terms: `invalidParam` with the SCIM type and an English detail. */
export const scimInvalid = (scimType: ScimType, detail: string) =>
  new PassportError('invalidParam', { scimType, detail });
/** A 409: the value is held already. */
export const scimTaken = (detail: string) =>
  new PassportError('usernameTaken', { scimType: 'uniqueness', detail });
export const scimNotFound = (what: 'User' | 'Group') =>
  new PassportError('notFound', { detail: `No such ${what} in this organisation` });

/** What the list calls take from the query (RFC 7644 §3.4.2). */
export interface ListArgs {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
  excludedAttributes?: string | undefined;
}

/** The filter, parsed; a filter the grammar refuses is `invalidFilter`. */
export function parseFilter(text: string | undefined): Filter | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    return parse(text);
  } catch {
    throw scimInvalid('invalidFilter', 'The filter is not in the SCIM filter grammar');
  }
}

/** `attr eq "value"` on one attribute (case-insensitive name), its value; else null. */
export function equalityOn(parsed: Filter | null, attribute: string): string | null {
  if (parsed?.op !== 'eq' || parsed.attrPath.toLowerCase() !== attribute.toLowerCase()) return null;
  return typeof parsed.compValue === 'string' ? parsed.compValue : null;
}

/** One page of resources as a ListResponse (1-based `startIndex`, as the RFC counts). */
export function listResponse<T extends object>(all: readonly T[], parsed: Filter | null, args: ListArgs) {
  const kept = parsed ? all.filter(matches(parsed)) : [...all];
  const startIndex = Math.max(1, args.startIndex ?? 1);
  const count = Math.min(MAX_PAGE, Math.max(0, args.count ?? MAX_PAGE));
  const page = kept.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [SCIM_SCHEMAS.list],
    totalResults: kept.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page,
  };
}

/** The meta block: times in ISO 8601, the version as a weak ETag (RFC 7644 §3.14). */
export const metaOf = (
  resourceType: 'User' | 'Group',
  location: string,
  created: number,
  updated: number,
  version: number,
) => ({
  resourceType,
  created: new Date(created).toISOString(),
  lastModified: new Date(updated).toISOString(),
  version: etagOf(version),
  location,
});

export const etagOf = (version: number) => `W/"${version}"`;

/**
 * A write with `If-Match` (RFC 7644 §3.14) goes ahead only while the resource is at a version it names
 * (`*`: any); compared weakly, as the versions are weak ETags. PRECONDITION_FAILED (412) otherwise.
 */
/**
 * Holds a resource's row until the write's transaction ends. On PostgreSQL (read committed) two writes
 * of one resource each read it before the other committed, and the later undid the earlier: a member
 * removed and, by a PATCH that read the old list, added back; two writes naming one version both
 * passing. The second now waits, then reads what the first wrote. SQLite runs one writer at a time.
 */
export async function holdForWrite(tx: Tx, table: 'scim_users' | 'roles', id: string): Promise<void> {
  if (!onPostgres(tx)) return;
  if (table === 'roles') await tx.selectFrom('roles').select('id').where('id', '=', id).forUpdate().execute();
  else await tx.selectFrom('scim_users').select('id').where('id', '=', id).forUpdate().execute();
}

export function assertMatches(ifMatch: string | undefined, version: number): void {
  if (ifMatch === undefined) return;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = opaque(etagOf(version));
  const named = ifMatch.split(',').map(opaque);
  if (!named.includes('*') && !named.includes(current))
    throw new PassportError('preconditionFailed', { detail: 'The resource has changed since that version' });
}

/** A path segment that is no SCIM attribute but an object's own machinery. */
const FORBIDDEN_SEGMENT = /(^|[.:[\]\s"])(__proto__|constructor|prototype)([.:[\]\s"]|$)/i;

/**
 * Applies PATCH operations (RFC 7644 §3.5.2) to a copy of the resource with scim-patch; a malformed
 * request or a path that finds nothing is a 400 with the library's `scimType`.
 */
export function patched<T extends object>(resource: T, body: unknown): T {
  const request = body as { schemas?: unknown; Operations?: unknown } | null;
  // scim-patch walks a path's segments as property names: `__proto__.x` would write to every
  // object's prototype in the process. JSON bodies with such keys are refused by the parser already.
  const operations = Array.isArray(request?.Operations) ? (request.Operations as unknown[]) : [];
  if (operations.some((o) => FORBIDDEN_SEGMENT.test(String((o as { path?: unknown } | null)?.path ?? ''))))
    throw scimInvalid('invalidPath', 'The path names no attribute');
  try {
    patchBodyValidation(request as Parameters<typeof patchBodyValidation>[0]);
    const normalised = (operations as ScimPatchOperation[]).map((operation) => ({
      ...operation,
      // Entra ID writes the op capitalised ("Replace"); RFC 7644 names them in lower case.
      op: String(operation.op).toLowerCase(),
    })) as ScimPatchOperation[];
    return scimPatch(structuredClone(resource) as never, normalised) as T;
  } catch (error) {
    if (error instanceof PatchError) {
      const scimType = error.scimCode === 'noTarget' ? 'noTarget' : 'invalidSyntax';
      throw scimInvalid(scimType as ScimType, error.message);
    }
    // A path naming an attribute inside a value that is not an object, and such.
    if (error instanceof TypeError) throw scimInvalid('invalidPath', 'The path names nothing here');
    throw error;
  }
}

/** `true`, `false`, or Entra ID's "True"/"False" strings; anything else is `invalidValue`. */
export function booleanOf(value: unknown, attribute: string, absent: boolean): boolean {
  if (value === undefined || value === null) return absent;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimInvalid('invalidValue', `${attribute} must be a boolean`);
}

/** An optional string attribute: absent or null is null; anything but a string is `invalidValue`. */
export function stringOf(value: unknown, attribute: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max)
    throw scimInvalid('invalidValue', `${attribute} must be a string of at most ${max} characters`);
  return value;
}

/** The attributes of a User kept as sent: what the server answers from its own rows is left out. */
const SERVER_USER_ATTRIBUTES = new Set([
  'id',
  'meta',
  'userName',
  'active',
  'externalId',
  'groups',
  'password',
]);

/** A User as the client sent it, read and checked: what the server stores and acts on. */
export interface UserInput {
  userName: string;
  active: boolean;
  externalId: string | null;
  /** The e-mail the account is found or made by: the primary one, else the first, else the userName. */
  email: string | null;
  /** What the membership is called: displayName, else the name's parts, else null. */
  displayName: string | null;
  /** The rest, as sent (name, emails, phoneNumbers, the enterprise extension, …). */
  attributes: Record<string, unknown>;
}

/** The most a User's attributes (all but what the server keeps itself) take, as JSON. */
export const USER_ATTRIBUTES_MAX_BYTES = 16 * 1024;
/** The most members a Group's write names: its writes are one statement per hundred or so. */
export const GROUP_MEMBERS_MAX = 1_000;

export function readUser(body: unknown): UserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw scimInvalid('invalidSyntax', 'The body must be a User object');
  const resource = body as Record<string, unknown>;
  const userName = stringOf(resource.userName, 'userName', 256)?.trim();
  if (!userName) throw scimInvalid('invalidValue', 'userName is required');
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource))
    if (!SERVER_USER_ATTRIBUTES.has(key)) attributes[key] = value;
  if (!Array.isArray(attributes.schemas)) attributes.schemas = [SCIM_SCHEMAS.user];
  // Kept as sent and read back on every list: bounded like an organisation's other data.
  if (Buffer.byteLength(JSON.stringify(attributes)) > USER_ATTRIBUTES_MAX_BYTES)
    throw scimInvalid('invalidValue', `A User's attributes take at most ${USER_ATTRIBUTES_MAX_BYTES} bytes`);
  const emails = Array.isArray(resource.emails) ? (resource.emails as unknown[]) : [];
  const emailValues = emails.filter(
    (e): e is { value: string; primary?: unknown } =>
      typeof e === 'object' && e !== null && typeof (e as { value?: unknown }).value === 'string',
  );
  const primary =
    emailValues.find((e) => booleanOf(e.primary, 'emails.primary', false)) ?? emailValues[0] ?? null;
  const name = (resource.name ?? {}) as Record<string, unknown>;
  const parts = [name.givenName, name.familyName].filter((p): p is string => typeof p === 'string');
  const displayName =
    stringOf(resource.displayName, 'displayName', 256) ??
    stringOf(name.formatted, 'name.formatted', 256) ??
    (parts.length > 0 ? parts.join(' ') : null);
  return {
    userName,
    active: booleanOf(resource.active, 'active', true),
    externalId: stringOf(resource.externalId, 'externalId', 256),
    email: primary?.value ?? (userName.includes('@') ? userName : null),
    displayName: displayName?.trim() || null,
    attributes,
  };
}

/** The groups a User's resource lists: the roles its membership holds. */
export async function groupsOfMembers(tx: Tx, subjectId: string, userIds: readonly string[]) {
  const out = new Map<string, { value: string; display: string }[]>();
  if (userIds.length === 0) return out;
  const rows = await tx
    .selectFrom('deputy_roles')
    .innerJoin('deputies', 'deputies.id', 'deputy_roles.deputy_id')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select(['deputies.user_id', 'roles.id', 'roles.role_name'])
    .where('deputies.subject_id', '=', subjectId)
    .where('deputies.user_id', 'in', userIds)
    .orderBy('roles.role_name')
    .execute();
  for (const row of rows)
    out.set(row.user_id, [...(out.get(row.user_id) ?? []), { value: row.id, display: row.role_name }]);
  return out;
}

/** The User resource of a row, its groups as given. */
export function userResource(
  row: ScimUserRow,
  groups: readonly { value: string; display: string }[],
  origin: string,
) {
  const { schemas, ...attributes } = JSON.parse(row.attributes) as Record<string, unknown>;
  return {
    ...attributes,
    schemas: Array.isArray(schemas) ? (schemas as string[]) : [SCIM_SCHEMAS.user],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    active: Number(row.active) === 1,
    groups,
    meta: metaOf(
      'User',
      `${origin}/scim/v2/Users/${row.id}`,
      Number(row.created_at),
      Number(row.updated_at),
      Number(row.version),
    ),
  };
}

/** A resource without what the server answers of its own (id, meta, groups): what PATCH starts from. */
export function writable(resource: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, meta: _meta, groups: _groups, ...rest } = resource;
  return rest;
}
