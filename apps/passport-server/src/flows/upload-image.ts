import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canSee, IMAGE_LIMITS, imageUrl, newImageKey, processImage } from '../domain/profile/images';
import { chargeUpdate, PROFILE_NAMESPACE } from '../domain/profile/quotas';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';

/** The file part of a parsed upload, or FILE_REQUIRED (a text field of that name is not a file). */
function fileOf(body: unknown, field: string): Buffer {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  if (!Buffer.isBuffer(value) || value.length === 0) throw new PassportError('fileRequired', { field });
  return value;
}

/**
 * update/upload_avatar and upload/pic: the upload was read whole by the route's parser (one file, size
 * capped while streaming); here it is checked and re-encoded (domain/profile/images) and stored in one
 * transaction with its effect. Nothing is written before the image is known good, so a refused or
 * aborted upload leaves no row. An avatar becomes the profile's avatar at once (counted against the
 * avatar quota); a picture sent with is_sensitive=1 waits for an operator, visible only to its owner.
 */
export async function uploadImage(app: FastifyInstance, request: FastifyRequest, kind: 'avatar' | 'pic') {
  const session = requireSession(request);
  const body = request.body as Record<string, unknown> | undefined;
  const bytes = fileOf(body, kind);
  const sensitive = kind === 'pic' && String(body?.is_sensitive ?? '0') === '1';
  const image = await processImage(bytes, kind === 'avatar' ? IMAGE_LIMITS.avatarSide : IMAGE_LIMITS.picSide);
  const key = newImageKey();
  const now = app.runtime.now();
  const review_state = sensitive ? ('pending' as const) : ('approved' as const);
  await app.db.transaction().execute(async (trx) => {
    // Counted first: the charge locks the account, so concurrent uploads are counted one at a time and
    // one refused writes nothing.
    await chargeUpdate(trx, app.config.profileQuotas, session.userId, PROFILE_NAMESPACE, kind, now);
    await trx
      .insertInto('images')
      .values({
        key,
        owner_id: session.userId,
        kind,
        mime: image.mime,
        width: image.width,
        height: image.height,
        size: image.data.length,
        review_state,
        data: image.data,
        created_at: now,
      })
      .execute();
    if (kind === 'avatar') {
      // The avatar as it is now, under the lock (the session's copy may be another upload's past).
      const { avatar_key: previous } = await trx
        .selectFrom('users')
        .select('avatar_key')
        .where('id', '=', session.userId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('users')
        .set({ avatar_key: key, updated_at: now })
        .where('id', '=', session.userId)
        .execute();
      // The replaced upload goes with it (a built-in default is not the user's to delete).
      if (previous)
        await trx
          .deleteFrom('images')
          .where('key', '=', previous)
          .where('owner_id', '=', session.userId)
          .where('kind', '=', 'avatar')
          .execute();
    }
  });
  return { key, url: imageUrl(key), width: image.width, height: image.height, review_state };
}

/** A stored image the viewer may see, or NOT_FOUND (an image under review is not admitted to exist). */
async function visibleImage(app: FastifyInstance, request: FastifyRequest, key: string) {
  const image = await app.db.selectFrom('images').selectAll().where('key', '=', key).executeTakeFirst();
  if (!image || !canSee(app, image, request.session?.userId)) throw new PassportError('notFound');
  return image;
}

/**
 * /user/web/download/image: the bytes. An approved image never changes under its key (a new upload is
 * a new key), so it is cached a year and immutable; one under review is private to its viewer and
 * revalidated each time. `nosniff`, a sandboxing CSP and an inline disposition keep any browser from
 * treating it as a page.
 */
export async function downloadImage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
) {
  const image = await visibleImage(app, request, key);
  const etag = `"${image.key}"`;
  const cache =
    image.review_state === 'approved' ? 'public, max-age=31536000, immutable' : 'private, no-cache';
  // Only a picture under review depends on who asks.
  if (image.review_state !== 'approved') reply.header('vary', 'Cookie');
  reply
    .header('cache-control', cache)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', `inline; filename="${image.key}.webp"`)
    .header('cross-origin-resource-policy', 'same-site');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const data = Buffer.isBuffer(image.data) ? image.data : Buffer.from(image.data as Uint8Array);
  return reply.type(image.mime).send(data);
}

/** /user/web/download/image/v2: what the image is, as an envelope (for pages that lay it out first). */
export async function describeImage(app: FastifyInstance, request: FastifyRequest, key: string) {
  const image = await visibleImage(app, request, key);
  return {
    key: image.key,
    url: imageUrl(image.key),
    mime: image.mime,
    width: Number(image.width),
    height: Number(image.height),
    size: Number(image.size),
    review_state: image.review_state,
  };
}

/** review/pic: a configured operator approves or rejects a picture under review. */
export async function reviewPic(
  app: FastifyInstance,
  request: FastifyRequest,
  key: string,
  approve: boolean,
) {
  const session = requireSession(request);
  if (!app.config.operators.includes(session.userId)) throw new PassportError('notAnOperator');
  const updated = await app.db
    .updateTable('images')
    .set({ review_state: approve ? 'approved' : 'rejected' })
    .where('key', '=', key)
    .where('kind', '=', 'pic')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new PassportError('notFound');
  return { key, review_state: approve ? 'approved' : 'rejected' };
}

/** review/pending: the pictures waiting for an operator, oldest first (at most 50). */
export async function pendingPics(app: FastifyInstance, request: FastifyRequest) {
  const session = requireSession(request);
  if (!app.config.operators.includes(session.userId)) throw new PassportError('notAnOperator');
  const rows = await app.db
    .selectFrom('images')
    .select(['key', 'owner_id', 'width', 'height', 'created_at'])
    .where('kind', '=', 'pic')
    .where('review_state', '=', 'pending')
    .orderBy('created_at', 'asc')
    .limit(50)
    .execute();
  return {
    pictures: rows.map((row) => ({
      key: row.key,
      url: imageUrl(row.key),
      owner_id: row.owner_id ?? '',
      width: Number(row.width),
      height: Number(row.height),
      created_at: Number(row.created_at),
    })),
  };
}
