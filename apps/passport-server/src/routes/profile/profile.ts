import { Type } from 'typebox';
import {
  checkDefaultInfo,
  defaultImages,
  recommendName,
  remainUpdateTimes,
  updateUserInfo,
} from '../../flows/profile';
import { describeImage, downloadImage, pendingPics, reviewPic } from '../../flows/upload-image';
import { paths } from '../../protocol';
import {
  DefaultInfo,
  ImageInfo,
  ImageList,
  PendingPics,
  Profile,
  RecommendNames,
  RemainUpdateTimes,
  schema,
} from '../../schemas/profile';
import { flowRoute } from '../declare';

/** The profile family (/web/user/…) and the image downloads (/user/web/download/…), issue 17. */

const aidPath = (path: string) => path.replace('{aid}', ':aid');

export const updateUserInfoRoute = flowRoute({
  method: 'POST',
  schema: schema.updateUserInfo,
  data: Profile,
  at: [['profile', paths.profile.updateUserInfo]],
  run: (app, request) => {
    const { name, description, birthday, gender, avatar_key } = request.body;
    return updateUserInfo(app, request, { name, description, birthday, gender, avatar_key });
  },
});

export const remainUpdateTimesRoute = flowRoute({
  method: 'GET',
  schema: schema.remainUpdateTimes,
  data: RemainUpdateTimes,
  at: [['profile', paths.profile.getRemainUpdateTimes]],
  run: (app, request) => remainUpdateTimes(app, request, request.query),
});

export const checkDefaultInfoRoute = flowRoute({
  method: 'GET',
  schema: schema.checkDefaultInfo,
  data: DefaultInfo,
  at: [['profile', paths.profile.checkDefaultInfo]],
  run: async (_app, request) => checkDefaultInfo(request, request.query.scene ?? 'normal'),
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

export const recommendNameRoute = flowRoute({
  method: 'GET',
  schema: schema.recommendName,
  data: RecommendNames,
  at: [['profile', paths.profile.settingsRecommendName]],
  run: (app, request) => recommendName(app, request),
});

export const reviewPicRoute = flowRoute({
  method: 'POST',
  schema: schema.reviewPic,
  data: Type.Object({ key: Type.String(), review_state: Type.String() }),
  at: [['profile', paths.profile.reviewPic]],
  run: (app, request) => reviewPic(app, request, request.body.key, request.body.approve === 1),
});

export const pendingPicsRoute = flowRoute({
  method: 'GET',
  schema: schema.pendingPics,
  data: PendingPics,
  at: [['profile', paths.profile.reviewPending]],
  run: (app, request) => pendingPics(app, request),
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
