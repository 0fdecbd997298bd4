import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { imageUrl, newImageKey, type ProcessedImage } from './images';
import { chargeUpdate, PROFILE_NAMESPACE, type QuotaOverrides } from './quotas';

/**
 * An upload's rows, written through the operation's transaction once the image is known good
 * (re-encoded before it): the quota's charge, the image, and for an avatar the profile's avatar. Nothing
 * is written for a refused upload.
 */
export async function storeUpload(
  tx: Kysely<Database>,
  quotas: QuotaOverrides,
  upload: { ownerId: string; kind: 'avatar' | 'pic'; image: ProcessedImage; sensitive: boolean; now: number },
) {
  const { ownerId, kind, image, now } = upload;
  const key = newImageKey();
  const review_state = upload.sensitive ? ('pending' as const) : ('approved' as const);
  // Counted first: the charge locks the account, so concurrent uploads are counted one at a time and
  // one refused writes nothing.
  await chargeUpdate(tx, quotas, ownerId, PROFILE_NAMESPACE, kind, now);
  await tx
    .insertInto('images')
    .values({
      key,
      owner_id: ownerId,
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
    const { avatar_key: previous } = await tx
      .selectFrom('users')
      .select('avatar_key')
      .where('id', '=', ownerId)
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('users')
      .set({ avatar_key: key, updated_at: now })
      .where('id', '=', ownerId)
      .execute();
    // The replaced upload goes with it (a built-in default is not the user's to delete).
    if (previous)
      await tx
        .deleteFrom('images')
        .where('key', '=', previous)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'avatar')
        .execute();
  }
  return { key, url: imageUrl(key), width: image.width, height: image.height, review_state };
}

/** Approves or rejects a picture (any review state), or NOT_FOUND. */
export async function reviewPicture(tx: Kysely<Database>, key: string, approve: boolean) {
  const review_state = approve ? 'approved' : 'rejected';
  const updated = await tx
    .updateTable('images')
    .set({ review_state })
    .where('key', '=', key)
    .where('kind', '=', 'pic')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new PassportError('notFound');
  return { key, review_state };
}

/** The pictures waiting for an operator, oldest first (at most 50). */
export async function pendingPictures(tx: Kysely<Database>) {
  const rows = await tx
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
