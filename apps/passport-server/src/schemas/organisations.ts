import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import { ORGANISATION_LIMITS as L, LIMITS, MAX_PAGE_SIZE } from '../protocol';
import { AccountInfo } from './account';
import { Code, CodeTypeField, CommonQuery, Flag, FORM, MixMode } from './common';
import { NewPassword } from './register';

/** Request and response schemas of the affiliate family (routes/aff); responses are documentation. */

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Name = Type.String({ minLength: 1, maxLength: L.nameMax });
const InfosText = Type.String({
  maxLength: L.infosMaxBytes * 2,
  description: `a JSON object, as text; at most ${L.infosMaxBytes} bytes of UTF-8`,
});
const StringList = (max: number, description: string) =>
  Type.Union(
    [Type.String({ maxLength: 16384 }), Type.Array(Type.String({ maxLength: 128 }), { maxItems: max })],
    {
      description,
    },
  );
const Permissions = StringList(L.permissionsMax, 'a JSON array of resource:action');
const IdentityIds = StringList(L.identitiesPerCall, 'a JSON array of user_identity_id');
const RoleKey = Type.String({ minLength: 1, maxLength: L.roleKeyMax, pattern: '^[A-Za-z0-9_.:-]+$' });
const Description = Type.String({ maxLength: L.descriptionMax });
const IdentityCard = Type.String({ minLength: 1, maxLength: L.identityCardMax });
const RealName = Type.String({ minLength: 1, maxLength: L.realNameMax });
const CurrentPassword = Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes });
const Page = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 }),
};

const query = <P extends TProperties>(fields: P) =>
  Type.Object({ ...CommonQuery.properties, ...fields }, { additionalProperties: true });
const body = <P extends TProperties>(fields: P) =>
  Type.Object({ ...fields, mix_mode: MixMode }, { additionalProperties: true });

/** JSON details the client gave (a subject's, an invitation's): free-form. */
export const Infos = Type.Record(Type.String(), Type.Unknown(), { description: 'a JSON object' });
export const ZeroOne = Type.Union([Type.Literal(0), Type.Literal(1)]);
export const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    page: Type.Integer(),
    page_size: Type.Integer(),
    total: Type.Integer(),
    has_more: Type.Boolean(),
  });
export const SubjectData = Type.Object(
  {
    sec_subject_uid: Type.String(),
    subject_name: Type.String(),
    base_infos: Infos,
    detail_infos: Infos,
    has_real_name: Type.Boolean({
      description: 'whether real-name fields are on file (sealed, never sent back)',
    }),
    is_frozen: ZeroOne,
    require_second_factor: ZeroOne,
    created_at: Type.Integer(),
  },
  { description: 'a subject' },
);
export const DeputyData = Type.Object(
  {
    user_identity_id: Type.String(),
    sec_subject_uid: Type.String(),
    sec_user_id: Type.String(),
    deputy_name: Type.String(),
    is_manager: Type.Boolean(),
    is_frozen: ZeroOne,
    awaiting_acceptance: Type.Boolean({
      description:
        'provisioned by the organisation’s identity provider for an account the person had: frozen until they accept',
    }),
    role_keys: Type.Array(Type.String()),
    created_at: Type.Integer(),
  },
  { description: 'a member identity' },
);
export const RoleData = Type.Object(
  {
    role_key: Type.String(),
    role_name: Type.String(),
    permissions: Type.Array(Type.String()),
    description: Type.String(),
    is_banned: ZeroOne,
    created_at: Type.Integer(),
    updated_at: Type.Integer(),
  },
  { description: 'a role' },
);
export const IdentityData = Type.Object(
  {
    user_identity_id: Type.String({ description: "'0': the personal identity" }),
    sec_subject_uid: Type.Union([Type.String(), Type.Null()]),
    subject_name: Type.Union([Type.String(), Type.Null()]),
    deputy_name: Type.String(),
    is_manager: Type.Boolean(),
    is_frozen: ZeroOne,
    subject_is_frozen: ZeroOne,
    awaiting_acceptance: Type.Boolean({
      description:
        'a membership the organisation’s identity provider provisioned: frozen until the person accepts (answerMembership)',
    }),
    active: Type.Boolean(),
  },
  { description: 'an identity one may act as' },
);
export const ResourceData = Type.Object(
  { resource: Type.String(), actions: Type.Array(Type.String()) },
  { description: 'a resource with its actions' },
);
export const LinkData = Type.Object(
  {
    user_identity_id: Type.String(),
    deputy_name: Type.String(),
    role_key: Type.String(),
    role_name: Type.String(),
  },
  { description: 'a member-role link' },
);
export const SubjectPage = PageOf(SubjectData);
export const DeputyPage = PageOf(DeputyData);
export const RolePage = PageOf(RoleData);
export const ResourcePage = PageOf(ResourceData);
export const LinkPage = PageOf(LinkData);
export const Count = Type.Object({}, { additionalProperties: Type.Integer() });
export const Deleted = Type.Object({ deleted: Type.Literal(true) });
export const PermissionsData = Type.Object({
  user_identity_id: Type.String(),
  is_manager: Type.Boolean(),
  permissions: Type.Array(Type.String()),
});
export const ExplainData = Type.Object({
  user_identity_id: Type.String(),
  permission: Type.String(),
  granted: Type.Boolean(),
  by_manager: Type.Boolean({ description: 'the manager holds every permission' }),
  roles: Type.Array(
    Type.Object({
      role_key: Type.String(),
      role_name: Type.String(),
      permissions: Type.Array(Type.String()),
    }),
    { description: 'the roles granting the permission, with their entries' },
  ),
  banned_roles: Type.Array(Type.String(), {
    description: 'the keys of the member’s banned roles that would grant it (a ban grants nothing)',
  }),
});
export const LoginListData = Type.Object({ items: Type.Array(IdentityData) });
/** The account, acting as the identity now; with need_frozen_user=1, a frozen one is answered instead. */
export const SignedInAs = Type.Object({
  ...AccountInfo.properties,
  frozen_identity: Type.Optional(
    Type.Object(IdentityData.properties, {
      description: 'the frozen identity asked for (need_frozen_user=1); the session stays as it was',
    }),
  ),
});
export const PasswordForgotten = Type.Object({ user_id: Type.String(), signed_in: Type.Boolean() });

const post = <B extends TObject>(summary: string, b: B) => ({
  summary,
  tags: ['organisations'],
  consumes: FORM,
  querystring: CommonQuery,
  body: b,
});
const get = <Q extends TObject>(summary: string, q: Q) => ({
  summary,
  tags: ['organisations'],
  querystring: q,
});

const createFields = {
  subject_name: Name,
  deputy_name: Name,
  password: Type.Optional(CurrentPassword),
  base_infos: Type.Optional(InfosText),
  detail_infos: Type.Optional(InfosText),
  identity_card: Type.Optional(IdentityCard),
  real_name: Type.Optional(RealName),
};
const subjectRef = { sec_subject_uid: Id };
const subjectUid = { subject_uid: Id };

export const schemas = {
  createByUsername: post(
    'Create a subject; the signed-in account (named by its username, when given) becomes its manager',
    body({ username: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), ...createFields }),
  ),
  createByMobile: post(
    'Create a subject; the signed-in account (named by its mobile, when given) becomes its manager',
    body({ mobile: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })), ...createFields }),
  ),
  createByEmail: post(
    'Create a subject; the signed-in account (named by its e-mail, when given) becomes its manager',
    body({ email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })), ...createFields }),
  ),
  subjectList: get(
    'The subjects the signed-in person is a member of, paged',
    query({ ...Page, deputy_identity_id: Type.Optional(Id) }),
  ),
  subjectInfo: get('One subject the caller is a member of', query(subjectRef)),
  subjectUpdate: post(
    'Update a subject (subject:update)',
    body({
      ...subjectRef,
      subject_name: Type.Optional(Name),
      base_infos: Type.Optional(InfosText),
      detail_infos: Type.Optional(InfosText),
      identity_card: Type.Optional(IdentityCard),
      real_name: Type.Optional(RealName),
    }),
  ),
  subjectFreeze: post(
    'Freeze or thaw a subject (the manager)',
    body({ ...subjectRef, is_frozen: Type.Integer({ minimum: 0, maximum: 1 }) }),
  ),
  subjectSecondFactor: post(
    'Require members to use a second factor, or stop requiring it (subject:update)',
    body({ ...subjectRef, require_second_factor: Type.Integer({ minimum: 0, maximum: 1 }) }),
  ),
  deputyList: get('A subject’s member identities, paged (member:read)', query({ ...subjectRef, ...Page })),
  identityList: get('The signed-in person’s member identities, paged', query(Page)),
  deputyUpdate: post(
    'Rename a member identity (member:update, or one’s own)',
    body({ ...subjectRef, user_identity_id: Id, deputy_name: Name }),
  ),
  deputyFreeze: post(
    'Freeze or thaw a member identity (member:freeze; never the manager)',
    body({ ...subjectRef, user_identity_id: Id, is_frozen: Type.Integer({ minimum: 0, maximum: 1 }) }),
  ),
  deputyDelete: post(
    'Remove a member identity (member:delete; never the manager)',
    body({ ...subjectRef, user_identity_id: Id }),
  ),
  resourceList: get('The access statement’s resources and actions, paged', query({ ...subjectUid, ...Page })),
  roleCreate: post(
    'Create a role (role:create) granting only permissions the caller holds',
    body({
      ...subjectUid,
      role_key: RoleKey,
      role_name: Name,
      permissions: Permissions,
      description: Type.Optional(Description),
    }),
  ),
  roleUpdate: post(
    'Update a role (role:update) granting only permissions the caller holds',
    body({
      ...subjectUid,
      role_key: RoleKey,
      role_name: Type.Optional(Name),
      permissions: Type.Optional(Permissions),
      description: Type.Optional(Description),
    }),
  ),
  roleBan: post(
    'Ban a role, or lift the ban (role:ban)',
    body({
      ...subjectUid,
      role_key: RoleKey,
      is_banned: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, default: 1 })),
    }),
  ),
  roleList: get('A subject’s roles, paged (role:read)', query({ ...subjectUid, ...Page })),
  roleInfo: get('One role (role:read)', query({ ...subjectUid, role_key: RoleKey })),
  userRoleCreateUser: post(
    'Invite a member with a role by their mobile or e-mail (member:create and role:assign); they join when they accept',
    body({
      ...subjectUid,
      account: Type.String({ minLength: 1, maxLength: 254 }),
      deputy_name: Name,
      role_key: RoleKey,
    }),
  ),
  userRoleAdd: post(
    'Give a role to members (role:assign)',
    body({ ...subjectUid, role_key: RoleKey, sec_user_identity_ids: IdentityIds }),
  ),
  userRoleDelete: post(
    'Take a role from members (role:assign)',
    body({ ...subjectUid, role_key: RoleKey, sec_user_identity_ids: IdentityIds }),
  ),
  userRoleList: get(
    'The members holding a role, paged (role:read)',
    query({ ...subjectUid, role_key: RoleKey, ...Page }),
  ),
  userRoleAll: get(
    'Every member-role link of a subject, paged (role:read)',
    query({ ...subjectUid, ...Page }),
  ),
  userPermissions: get(
    'A member’s permissions in a subject (one’s own; another’s with member:read)',
    query({ ...subjectUid, identity_id: Type.Optional(Id) }),
  ),
  permissionExplain: get(
    'The roles that grant a member a permission (one’s own; another’s with member:read)',
    query({
      ...subjectUid,
      identity_id: Type.Optional(Id),
      permission: Type.String({ minLength: 1, maxLength: 128 }),
    }),
  ),
  forgotPassword: post(
    'Organisation forgot password: a mobile or e-mail identifier, its reset code and a new password',
    body({
      identifier: Type.String({ minLength: 1, maxLength: 254 }),
      code: Code,
      password: NewPassword,
      type: Type.Optional(CodeTypeField),
    }),
  ),
  subjectLoginList: get(
    'The identities the signed-in person may act as (the personal one first)',
    CommonQuery,
  ),
  subjectLogin: post(
    'Make an identity active: a new session token carrying it',
    body({ login_subject_uid: Id, user_identity_id: Id, need_frozen_user: Flag }),
  ),
  memberSwitch: post(
    'Switch to another identity of the signed-in person (to_sec_member_id; 0 is the personal one)',
    body({ to_sec_member_id: Id, need_frozen_user: Flag }),
  ),
} satisfies Record<string, { summary: string; tags: string[] } & Record<string, unknown>>;
