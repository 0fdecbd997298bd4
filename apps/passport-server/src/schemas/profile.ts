import { type TProperties, Type } from 'typebox';
import { CommonQuery, FORM, MixMode } from './common';

/** Profiles and uploads (issue 17): the editable profile, quotas, defaults, uploads and downloads. */

/** The common query parameters plus a route's own. */
const query = <P extends TProperties>(own: P) =>
  Type.Object({ ...CommonQuery.properties, ...own }, { additionalProperties: true });

export const Profile = Type.Object({
  user_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  birthday: Type.String({ description: 'YYYY-MM-DD, or empty' }),
  gender: Type.Integer({ description: '0 unset, 1 male, 2 female, 3 another' }),
  avatar_key: Type.String(),
  avatar_url: Type.String(),
});

export const UpdateUserInfoBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    birthday: Type.Optional(Type.String({ maxLength: 10 })),
    gender: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
    avatar_key: Type.Optional(Type.String({ maxLength: 64 })),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

/** The languages a person can choose (the apps' switch): the one set the pages are written in. */
export const ChosenLanguage = Type.Union([Type.Literal('zh'), Type.Literal('en')], {
  description: 'zh or en',
});

export const UpdateLanguageBody = Type.Object(
  { language: ChosenLanguage, mix_mode: MixMode },
  { additionalProperties: true },
);

export const SavedLanguage = Type.Object({ language: ChosenLanguage });

export const RemainUpdateTimesQuery = query({
  field: Type.Union([
    Type.Literal('name'),
    Type.Literal('avatar'),
    Type.Literal('description'),
    Type.Literal('birthday'),
    Type.Literal('gender'),
    Type.Literal('pic'),
  ]),
  field_namespace: Type.Optional(Type.Literal('profile', { default: 'profile' })),
});

export const RemainUpdateTimes = Type.Object({
  field: Type.String(),
  field_namespace: Type.String(),
  remain_times: Type.Integer({ description: '-1 when the field has no quota' }),
  total_times: Type.Integer(),
  window_seconds: Type.Integer(),
  next_available_at: Type.Integer({ description: 'ms since the epoch; 0 when a change is possible now' }),
});

export const SceneQuery = query({ scene: Type.Optional(Type.String({ maxLength: 32, default: 'normal' })) });

export const DefaultInfo = Type.Object({
  scene: Type.String(),
  is_default: Type.Boolean({ description: 'whether any field still has its generated default' }),
  default_fields: Type.Array(Type.String()),
});

export const AidParams = Type.Object({ aid: Type.String({ pattern: '^[0-9]{1,12}$' }) });

export const ImageList = Type.Object({
  images: Type.Array(Type.Object({ key: Type.String(), url: Type.String() })),
});

export const RecommendNames = Type.Object({ names: Type.Array(Type.String()) });

export const UploadedImage = Type.Object({
  key: Type.String(),
  url: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  review_state: Type.Union([Type.Literal('approved'), Type.Literal('pending'), Type.Literal('rejected')]),
});

/**
 * A multipart upload: the file part (its bytes, read by the route's own parser with the caps) and the
 * text fields. Sent form-encoded, `avatar` is a string and the route answers FILE_REQUIRED.
 */
const FilePart = Type.Unsafe<Buffer | string>({ description: 'the image file (multipart)' });
export const UploadAvatarBody = Type.Object(
  { avatar: Type.Optional(FilePart) },
  { additionalProperties: true },
);
export const UploadPicBody = Type.Object(
  {
    pic: Type.Optional(FilePart),
    is_sensitive: Type.Optional(
      Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Integer({ minimum: 0, maximum: 1 })]),
    ),
  },
  { additionalProperties: true },
);

export const KeyQuery = query({
  key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});

export const ImageInfo = Type.Object({
  key: Type.String(),
  url: Type.String(),
  mime: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer(),
  review_state: Type.String(),
});

export const PendingPics = Type.Object({
  pictures: Type.Array(
    Type.Object({
      key: Type.String(),
      url: Type.String(),
      owner_id: Type.String(),
      width: Type.Integer(),
      height: Type.Integer(),
      created_at: Type.Integer(),
    }),
  ),
});

export const ReviewBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    approve: Type.Integer({ minimum: 0, maximum: 1 }),
  },
  { additionalProperties: true },
);

const MULTIPART = ['multipart/form-data', ...FORM];

export const schema = {
  updateUserInfo: {
    summary: 'Change profile fields (name, description, birthday, gender, avatar_key); quotas per field',
    tags: ['profile'],
    consumes: FORM,
    querystring: CommonQuery,
    body: UpdateUserInfoBody,
  },
  updateLanguage: {
    summary: "Save the signed-in person's language: a browser without a choice of its own gets it at sign-in",
    tags: ['profile'],
    consumes: FORM,
    querystring: CommonQuery,
    body: UpdateLanguageBody,
  },
  remainUpdateTimes: {
    summary: 'How many more times a profile field may change in its window, and when the next is possible',
    tags: ['profile'],
    querystring: RemainUpdateTimesQuery,
  },
  checkDefaultInfo: {
    summary: 'Whether the profile still has its generated defaults (name, avatar)',
    tags: ['profile'],
    querystring: SceneQuery,
  },
  defaultAvatars: {
    summary: "This app's default avatars",
    tags: ['profile'],
    querystring: CommonQuery,
    params: AidParams,
  },
  defaultBackgrounds: {
    summary: "This app's default background images",
    tags: ['profile'],
    querystring: CommonQuery,
    params: AidParams,
  },
  recommendName: {
    summary: 'A few available, inoffensive display names',
    tags: ['profile'],
    querystring: CommonQuery,
  },
  uploadAvatar: {
    summary: 'Upload an avatar (multipart field `avatar`; png, jpeg, webp or gif ≤ 5 MB; re-encoded)',
    tags: ['profile'],
    consumes: MULTIPART,
    querystring: CommonQuery,
    body: UploadAvatarBody,
  },
  uploadPic: {
    summary: 'Upload a picture (multipart `pic`, `is_sensitive`: 1 keeps it for its owner until reviewed)',
    tags: ['profile'],
    consumes: MULTIPART,
    querystring: CommonQuery,
    body: UploadPicBody,
  },
  reviewPic: {
    summary: 'An operator approves or rejects a sensitive picture',
    tags: ['profile'],
    consumes: FORM,
    querystring: CommonQuery,
    body: ReviewBody,
  },
  pendingPics: {
    summary: "An operator's queue: the sensitive pictures waiting for review",
    tags: ['profile'],
    querystring: CommonQuery,
  },
  downloadImage: {
    summary: 'The image bytes by key (cached; a picture under review only for its owner)',
    tags: ['profile'],
    querystring: KeyQuery,
  },
  downloadImageV2: {
    summary: "An image's description by key: its address, type, size and review state",
    tags: ['profile'],
    querystring: KeyQuery,
  },
};
