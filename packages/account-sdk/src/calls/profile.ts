import type { AccountClient, CallOptions } from '../client/types';
import type {
  AccountExportData,
  DefaultInfoData,
  Extra,
  ImageInfoData,
  ImageKeyPayload,
  ImageListData,
  LanguagePayload,
  PendingPicsData,
  ProfileData,
  RecommendNamesData,
  RemainUpdateTimesData,
  RemainUpdateTimesPayload,
  ReviewedPicData,
  ScenePayload,
  UpdateUserInfoPayload,
  UploadAvatarPayload,
  UploadedImage,
  UploadPicPayload,
} from '../protocol/types';
import { normalScene } from './defaults';
import { type CallPath, defineCall } from './define-call';

/** Uploads a new avatar (multipart field `avatar`). */
export const uploadAvatar = /* @__PURE__ */ defineCall<UploadAvatarPayload, UploadedImage>(
  '/web/user/update/upload_avatar/',
  null,
  'UPLOAD',
);
/** Updates profile fields. */
export const updateUserInfo = /* @__PURE__ */ defineCall<UpdateUserInfoPayload, ProfileData>(
  '/web/user/update/user_info/',
);
/**
 * Saves the signed-in person's language: a browser without a choice of its own (no `portico.language`
 * cookie) gets it when they sign in there.
 */
export const saveLanguage = /* @__PURE__ */ defineCall<LanguagePayload, LanguagePayload>(
  '/web/user/update/language/',
);
/** Whether the profile still has default values, for a scene. */
export const checkDefaultInfo = /* @__PURE__ */ defineCall<ScenePayload, DefaultInfoData>(
  '/web/user/check/default_info/',
  normalScene,
  'GET',
);
/** The default background images of this app. */
export const defaultBackgroundImages = /* @__PURE__ */ defineCall<Extra, ImageListData>(
  '/web/user/settings/{aid}/default_background_image_list/',
  null,
  'GET',
);
/** The default avatars of this app. */
export const defaultAvatars = /* @__PURE__ */ defineCall<Extra, ImageListData>(
  '/web/user/settings/{aid}/default_avatar_list/',
  null,
  'GET',
);
/** A recommended display name. */
export const recommendName = /* @__PURE__ */ defineCall<Extra, RecommendNamesData>(
  '/web/user/settings/recommend_name/',
  null,
  'GET',
);
/** Uploads a picture (multipart field `pic`). */
export const uploadPic = /* @__PURE__ */ defineCall<UploadPicPayload, UploadedImage>(
  '/web/user/upload/pic/',
  null,
  'UPLOAD',
);
/** How many more times a profile field may change. */
export const remainUpdateTimes = /* @__PURE__ */ defineCall<RemainUpdateTimesPayload, RemainUpdateTimesData>(
  '/web/user/get/remain_update_times/',
  null,
  'GET',
);
/**
 * Downloads an image by key: resolves a `Blob` of its bytes, `type` its content type (`image/webp`).
 * An unknown key, or a picture under review asked for by anyone but its owner, rejects `notFound`.
 */
export const downloadImage = (
  client: AccountClient,
  payload: ImageKeyPayload,
  options?: CallOptions,
): Promise<Blob> =>
  client.request({
    ...options,
    // Written over `client.request`: a `binary` option in `defineCall` would weigh on every page.
    path: '/user/web/download/image/' satisfies CallPath,
    method: 'GET',
    data: { ...payload },
    envelope: 'web',
    binary: true,
  });
/** Downloads an image by key, version 2. */
export const downloadImageV2 = /* @__PURE__ */ defineCall<ImageKeyPayload, ImageInfoData>(
  '/user/web/download/image/v2/',
  null,
  'GET',
);
/** An operator approves (`approve: 1`) or rejects (`approve: 0`) a sensitive picture under review. */
export const reviewPic = /* @__PURE__ */ defineCall<ImageKeyPayload & { approve: 0 | 1 }, ReviewedPicData>(
  '/web/user/review/pic/',
);
/** An operator's queue: the sensitive pictures waiting for review, oldest first. */
export const pendingPics = /* @__PURE__ */ defineCall<Extra, PendingPicsData>(
  '/web/user/review/pending/',
  null,
  'GET',
);
/** Everything the signed-in account holds, as JSON: to keep a copy before cancelling. */
export const exportUserData = /* @__PURE__ */ defineCall<Extra, AccountExportData>(
  '/web/user/get/user_data/',
  null,
  'GET',
);
