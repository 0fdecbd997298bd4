import { sql } from 'kysely';
import { PassportError } from '../../errors';

/**
 * The management API's cursor paging, newest first: a page's position is its last row's creation time
 * and id, opaque to the client, so pages stay stable while rows are added.
 */
const encodeCursor = (createdAt: number, id: string) =>
  Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // A time in ms and an id as the server wrote them: anything else (1.5, 1e21) is not a cursor.
    if (
      Array.isArray(value) &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= 64
    )
      return [value[0] as number, value[1]];
  } catch {}
  throw new PassportError('invalidParam', { reason: 'cursor' });
}

/** The rows after `cursor` in the one table a page reads (`created_at` desc, then `id` desc). */
export function afterCursor(cursor: string) {
  const [createdAt, id] = decodeCursor(cursor);
  return sql<boolean>`(created_at < ${createdAt} or (created_at = ${createdAt} and id < ${id}))`;
}

/** A page of `limit` rows from `limit + 1` read, and the cursor of the next page, if there is one. */
export function pageOf<R extends { created_at: number | string; id: string }>(rows: R[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last ? encodeCursor(Number(last.created_at), last.id) : null };
}
