import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canSee, imageUrl } from '../domain/profile/images';
import { PassportError } from '../errors';

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
