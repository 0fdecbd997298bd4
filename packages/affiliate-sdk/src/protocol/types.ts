/** The wire types of the affiliate calls (snake_case, as the passport sends and takes them). */

/** A page of a list: the spec's defaults are page 1, 10 a page. */
export interface PageQuery {
  page?: number;
  page_size?: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
  has_more: boolean;
}

/** JSON details of a subject; at most LIMITS 8 KiB each once serialised. */
export type Infos = Record<string, unknown>;

export interface Subject {
  sec_subject_uid: string;
  subject_name: string;
  base_infos: Infos;
  detail_infos: Infos;
  /** Whether real-name fields are on file (they are stored encrypted and never sent back). */
  has_real_name: boolean;
  is_frozen: 0 | 1;
  created_at: number;
}

/** A member identity (deputy). */
export interface Deputy {
  user_identity_id: string;
  sec_subject_uid: string;
  sec_user_id: string;
  deputy_name: string;
  is_manager: boolean;
  is_frozen: 0 | 1;
  role_keys: string[];
  created_at: number;
}

/** One identity the signed-in person may act as; user_identity_id '0' is the personal one. */
export interface LoginIdentity {
  user_identity_id: string;
  sec_subject_uid: string | null;
  subject_name: string | null;
  deputy_name: string;
  is_manager: boolean;
  /** 1 when the identity or its subject is frozen: it cannot be signed in as. */
  is_frozen: 0 | 1;
  subject_is_frozen: 0 | 1;
  active: boolean;
}

export interface Role {
  role_key: string;
  role_name: string;
  permissions: string[];
  description: string;
  is_banned: 0 | 1;
  created_at: number;
  updated_at: number;
}

export interface ResourceRow {
  resource: string;
  actions: string[];
}

export interface UserRoleLink {
  user_identity_id: string;
  deputy_name: string;
  role_key: string;
  role_name: string;
}

export interface MemberPermissions {
  user_identity_id: string;
  is_manager: boolean;
  permissions: string[];
}

/** Why a member holds a permission: each role granting it, with its permission entries. */
export interface PermissionExplanation {
  user_identity_id: string;
  permission: string;
  granted: boolean;
  /** true when the member is the subject's manager (who holds every permission). */
  by_manager: boolean;
  roles: { role_key: string; role_name: string; permissions: string[] }[];
}

/** The active identity as account/info and the product token carry it (`org` claim). */
export interface ActiveIdentity {
  sec_subject_uid: string;
  user_identity_id: string;
  is_manager: boolean;
  permissions: string[];
}

// Payloads

export interface CreateSubjectBase {
  subject_name: string;
  deputy_name: string;
  /** The signed-in account's password, re-checked when given. */
  password?: string;
  base_infos?: Infos;
  detail_infos?: Infos;
  identity_card?: string;
  real_name?: string;
}
/** The identifier, when given, must name the signed-in account (it never says who acts). */
export interface CreateSubjectByUsername extends CreateSubjectBase {
  username?: string;
}
export interface CreateSubjectByMobile extends CreateSubjectBase {
  mobile?: string;
}
export interface CreateSubjectByEmail extends CreateSubjectBase {
  email?: string;
}
export interface SubjectRef {
  sec_subject_uid: string;
}
export interface ListSubjectsPayload extends PageQuery {
  /** Only the subject of this identity. */
  deputy_identity_id?: string;
}
export interface UpdateSubjectPayload extends SubjectRef {
  subject_name?: string;
  base_infos?: Infos;
  detail_infos?: Infos;
  identity_card?: string;
  real_name?: string;
}
export interface FreezeSubjectPayload extends SubjectRef {
  is_frozen: 0 | 1;
}
export interface ListDeputiesPayload extends SubjectRef, PageQuery {}
export interface DeputyRef extends SubjectRef {
  user_identity_id: string;
}
export interface UpdateDeputyPayload extends DeputyRef {
  deputy_name: string;
}
export interface FreezeDeputyPayload extends DeputyRef {
  is_frozen: 0 | 1;
}
export interface SubjectUid {
  subject_uid: string;
}
export interface ResourceListPayload extends SubjectUid, PageQuery {}
export interface CreateRolePayload extends SubjectUid {
  role_key: string;
  role_name: string;
  permissions: string[];
  description?: string;
}
export interface UpdateRolePayload extends SubjectUid {
  role_key: string;
  role_name?: string;
  permissions?: string[];
  description?: string;
}
export interface BanRolePayload extends SubjectUid {
  role_key: string;
  /** 1 bans, 0 lifts the ban. Default 1. */
  is_banned?: 0 | 1;
}
export interface RoleRef extends SubjectUid {
  role_key: string;
}
export interface RoleListPayload extends SubjectUid, PageQuery {}
export interface CreateUserWithRolePayload extends SubjectUid {
  /** The existing account to add: its username, mobile or e-mail. */
  account: string;
  deputy_name: string;
  role_key: string;
}
export interface UserRolesPayload extends SubjectUid {
  role_key: string;
  sec_user_identity_ids: string[];
}
export interface UserRoleListPayload extends SubjectUid, PageQuery {
  role_key: string;
}
export interface AllUserRolesPayload extends SubjectUid, PageQuery {}
export interface UserPermissionsPayload extends SubjectUid {
  /** Whose permissions; default the caller's own identity in the subject. */
  identity_id?: string;
}
export interface ExplainPayload extends UserPermissionsPayload {
  permission: string;
}
export interface ForgotPasswordPayload {
  /** A mobile number or an e-mail address. */
  identifier: string;
  code: string;
  password: string;
}
export interface SubjectLoginPayload {
  login_subject_uid: string;
  user_identity_id: string;
  /** 1: a frozen identity answers with its frozen state instead of being refused. Default 0. */
  need_frozen_user?: 0 | 1;
}
