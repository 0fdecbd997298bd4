import { Type } from 'typebox';
import { operationRoute } from '../../adapters/operation-route';
import { defaultImages } from '../../domain/profile/images';
import { describeImage, downloadImage } from '../../flows/download-image';
import { pendingPics, reviewPic } from '../../operations/account/images';
import { saveLanguage } from '../../operations/account/language';
import {
  checkDefaultInfo,
  recommendName,
  remainUpdateTimes,
  updateUserInfo,
} from '../../operations/account/profile';
import { paths } from '../../protocol';
import { ImageInfo, ImageList, schema } from '../../schemas/profile';
import { flowRoute } from '../declare';

/**
 * The profile family (/web/user/…): the operations of src/operations/account/profile and the picture
 * reviews of src/operations/account/images; the default image lists (constant data of an app, its aid
 * in the path) and the downloads (src/flows/download-image: bytes with their cache headers) as flows.
 */

const aidPath = (path: string) => path.replace('{aid}', ':aid');

export const updateUserInfoRoute = operationRoute(updateUserInfo, {
  method: 'POST',
  schema: schema.updateUserInfo,
  at: [['profile', paths.profile.updateUserInfo]],
});

export const updateLanguageRoute = operationRoute(saveLanguage, {
  method: 'POST',
  schema: schema.updateLanguage,
  at: [['profile', paths.profile.updateLanguage]],
});

export const remainUpdateTimesRoute = operationRoute(remainUpdateTimes, {
  method: 'GET',
  schema: schema.remainUpdateTimes,
  at: [['profile', paths.profile.getRemainUpdateTimes]],
});

export const checkDefaultInfoRoute = operationRoute(checkDefaultInfo, {
  method: 'GET',
  schema: schema.checkDefaultInfo,
  at: [['profile', paths.profile.checkDefaultInfo]],
});

export const defaultAvatarsRoute = flowRoute({
  method: 'GET',
  schema: schema.defaultAvatars,
  data: ImageList,
  at: [['profile', aidPath(paths.profile['settings{aid}DefaultAvatarList'])]],
  run: async (_app, request) => defaultImages(request.params.aid, 'avatars'),
});

export const defaultBackgroundsRoute = flowRoute({
  method: 'GET',
  schema: schema.defaultBackgrounds,
  data: ImageList,
  at: [['profile', aidPath(paths.profile['settings{aid}DefaultBackgroundImageList'])]],
  run: async (_app, request) => defaultImages(request.params.aid, 'backgrounds'),
});

export const recommendNameRoute = operationRoute(recommendName, {
  method: 'GET',
  schema: schema.recommendName,
  at: [['profile', paths.profile.settingsRecommendName]],
});

export const reviewPicRoute = operationRoute(reviewPic, {
  method: 'POST',
  schema: schema.reviewPic,
  at: [['profile', paths.profile.reviewPic]],
});

export const pendingPicsRoute = operationRoute(pendingPics, {
  method: 'GET',
  schema: schema.pendingPics,
  at: [['profile', paths.profile.reviewPending]],
});

export const downloadImageRoute = flowRoute({
  method: 'GET',
  schema: schema.downloadImage,
  data: Type.Unknown(),
  responses: { 304: Type.Null({ description: 'not modified (If-None-Match)' }) },
  at: [['download', paths.download.image]],
  run: (app, request, reply) => downloadImage(app, request, reply, request.query.key).then(() => undefined),
});

export const downloadImageV2Route = flowRoute({
  method: 'GET',
  schema: schema.downloadImageV2,
  data: ImageInfo,
  at: [['download', paths.download.imageV2]],
  run: (app, request) => describeImage(app, request, request.query.key),
});
