import { downloadPaths, profilePaths } from '../protocol/paths';
import { normalScene } from './defaults';
import { defineCall } from './define-call';
import type {
  Extra,
  ImageKeyPayload,
  RemainUpdateTimesPayload,
  ScenePayload,
  UploadAvatarPayload,
  UploadPicPayload,
} from './payloads';

/** The profile imported from the third-party account. */
export const getOauthProfile = /* @__PURE__ */ defineCall<Extra>(
  profilePaths,
  'getOauthProfile',
  null,
  'GET',
);
/** Uploads a new avatar (multipart field `avatar`). */
export const uploadAvatar = /* @__PURE__ */ defineCall<UploadAvatarPayload>(
  profilePaths,
  'updateUploadAvatar',
  null,
  'UPLOAD',
);
/** Updates profile fields. */
export const updateUserInfo = /* @__PURE__ */ defineCall<Extra>(profilePaths, 'updateUserInfo');
/** Whether the profile still has default values, for a scene. */
export const checkDefaultInfo = /* @__PURE__ */ defineCall<ScenePayload>(
  profilePaths,
  'checkDefaultInfo',
  normalScene,
  'GET',
);
/** The default background images of this app. */
export const defaultBackgroundImages = /* @__PURE__ */ defineCall<Extra>(
  profilePaths,
  'settings{aid}DefaultBackgroundImageList',
  null,
  'GET',
);
/** The default avatars of this app. */
export const defaultAvatars = /* @__PURE__ */ defineCall<Extra>(
  profilePaths,
  'settings{aid}DefaultAvatarList',
  null,
  'GET',
);
/** A recommended display name. */
export const recommendName = /* @__PURE__ */ defineCall<Extra>(
  profilePaths,
  'settingsRecommendName',
  null,
  'GET',
);
/** Uploads a picture (multipart field `pic`). */
export const uploadPic = /* @__PURE__ */ defineCall<UploadPicPayload>(
  profilePaths,
  'uploadPic',
  null,
  'UPLOAD',
);
/** How many more times a profile field may change. */
export const remainUpdateTimes = /* @__PURE__ */ defineCall<RemainUpdateTimesPayload>(
  profilePaths,
  'getRemainUpdateTimes',
  null,
  'GET',
);
/** Downloads an image by key. */
export const downloadImage = /* @__PURE__ */ defineCall<ImageKeyPayload>(downloadPaths, 'image', null, 'GET');
/** Downloads an image by key, version 2. */
export const downloadImageV2 = /* @__PURE__ */ defineCall<ImageKeyPayload>(
  downloadPaths,
  'imageV2',
  null,
  'GET',
);
