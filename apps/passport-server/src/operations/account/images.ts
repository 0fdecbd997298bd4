import { Type } from 'typebox';
import { pendingPictures, reviewPicture, storeUpload } from '../../domain/profile/uploads';
import { PendingPics, schema, UploadedImage } from '../../schemas/profile';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/**
 * The profile's uploads and the operators' review of pictures (docs/profile.md). An upload's input is
 * the image as the route re-encoded it, before the transaction (src/routes/profile/uploads.ts): a slow
 * decode must not hold the transaction, nor SQLite's one connection.
 */

const Reencoded = Type.Object({
  mime: Type.Literal('image/webp'),
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
  data: Type.Unsafe<Buffer>({ description: 'the re-encoded bytes' }),
});
export const UploadInput = Type.Object({ image: Reencoded, sensitive: Type.Boolean() });

/** update/upload_avatar: the avatar now, counted against the avatar quota; the replaced upload goes. */
export const uploadAvatar = defineOperation({
  name: 'account.avatar.upload',
  input: UploadInput,
  output: UploadedImage,
  caller: caller.person,
  emits: ['account.profile_updated'],
  async run(ctx, input) {
    const stored = await storeUpload(ctx.tx, ctx.config.profileQuotas, {
      ownerId: ctx.caller.user.id,
      kind: 'avatar',
      image: input.image,
      sensitive: false,
      now: ctx.now(),
    });
    // The field update/user_info names: the avatar changed, as if a key had been chosen there.
    emitForAccount(ctx, 'account.profile_updated', { fields: ['avatar_key'] });
    return stored;
  },
});

/** upload/pic: a picture; a sensitive one waits for an operator, visible only to its owner. */
export const uploadPicture = defineOperation({
  name: 'account.picture.upload',
  input: UploadInput,
  output: UploadedImage,
  caller: caller.person,
  emits: [],
  run: (ctx, input) =>
    storeUpload(ctx.tx, ctx.config.profileQuotas, {
      ownerId: ctx.caller.user.id,
      kind: 'pic',
      image: input.image,
      sensitive: input.sensitive,
      now: ctx.now(),
    }),
});

/** review/pic: an operator approves or rejects a picture. */
export const reviewPic = defineOperation({
  name: 'operator.picture.review',
  input: schema.reviewPic.body,
  output: Type.Object({ key: Type.String(), review_state: Type.String() }),
  caller: caller.operator,
  emits: [],
  run: (ctx, input) => reviewPicture(ctx.tx, input.key, input.approve === 1),
});

/** review/pending: the pictures waiting for an operator, oldest first (at most 50). */
export const pendingPics = defineOperation({
  name: 'operator.picture.pending',
  input: schema.pendingPics.querystring,
  output: PendingPics,
  caller: caller.operator,
  emits: [],
  run: (ctx) => pendingPictures(ctx.tx),
});
