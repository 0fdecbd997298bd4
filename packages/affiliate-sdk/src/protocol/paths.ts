/**
 * The affiliate family (spec §7: "affiliate under /passport/aff/web"). The spec shows the family, not
 * the names: these are Portico's, one per call by purpose. Member switch keeps the account SDK's
 * `/passport/member/switch/` (its `switchMember`).
 */

const PREFIX = '/passport/aff/web/';

/** Path names by purpose; `affiliatePaths.roleCreate === '/passport/aff/web/role/create/'`. */
export const affiliatePaths = {
  subjectCreateByUsername: `${PREFIX}subject/create_by_username/`,
  subjectCreateByMobile: `${PREFIX}subject/create_by_mobile/`,
  subjectCreateByEmail: `${PREFIX}subject/create_by_email/`,
  subjectList: `${PREFIX}subject/list/`,
  subjectInfo: `${PREFIX}subject/info/`,
  subjectUpdate: `${PREFIX}subject/update/`,
  subjectFreeze: `${PREFIX}subject/freeze/`,
  /** Whether members must use a second factor (subject:update). */
  subjectSecondFactor: `${PREFIX}subject/second_factor/`,
  /** The organisation's audit log (audit:read), a page of it or all of it as CSV or JSON. */
  auditList: `${PREFIX}audit/list/`,
  auditExport: `${PREFIX}audit/export/`,
  /** The organisation's management API keys (its manager, after a fresh verification to create). */
  apiKeyCreate: `${PREFIX}api_key/create/`,
  apiKeyList: `${PREFIX}api_key/list/`,
  apiKeyRevoke: `${PREFIX}api_key/revoke/`,
  /** The organisation's e-mail domains (sso:manage): add, list, verify by DNS TXT, remove. */
  domainAdd: `${PREFIX}domain/add/`,
  domainList: `${PREFIX}domain/list/`,
  domainVerify: `${PREFIX}domain/verify/`,
  domainRemove: `${PREFIX}domain/remove/`,
  /** The organisation's single sign-on connection (sso:manage): save (OIDC or SAML), read, remove. */
  connectionSave: `${PREFIX}sso_connection/save/`,
  samlConnectionSave: `${PREFIX}sso_connection/save_saml/`,
  connectionInfo: `${PREFIX}sso_connection/info/`,
  connectionRemove: `${PREFIX}sso_connection/remove/`,
  /** The organisation's single sign-on policy (sso:manage): require it, the roles of a first sign-in. */
  policySave: `${PREFIX}sso_policy/save/`,
  policyInfo: `${PREFIX}sso_policy/info/`,
  /** The signed-in person accepts or declines a membership SCIM provisioned for their account. */
  membershipAccept: `${PREFIX}membership/accept/`,
  deputyList: `${PREFIX}deputy/list/`,
  identityList: `${PREFIX}identity/list/`,
  deputyUpdate: `${PREFIX}deputy/update/`,
  deputyFreeze: `${PREFIX}deputy/freeze/`,
  deputyDelete: `${PREFIX}deputy/delete/`,
  resourceList: `${PREFIX}resource/list/`,
  roleCreate: `${PREFIX}role/create/`,
  roleUpdate: `${PREFIX}role/update/`,
  roleBan: `${PREFIX}role/ban/`,
  roleList: `${PREFIX}role/list/`,
  roleInfo: `${PREFIX}role/info/`,
  userRoleCreateUser: `${PREFIX}user_role/create_user/`,
  userRoleAdd: `${PREFIX}user_role/add/`,
  userRoleDelete: `${PREFIX}user_role/delete/`,
  userRoleList: `${PREFIX}user_role/list/`,
  userRoleAll: `${PREFIX}user_role/all/`,
  userPermissions: `${PREFIX}user_role/permissions/`,
  permissionExplain: `${PREFIX}user_role/explain/`,
  forgotPassword: `${PREFIX}password/forgot/`,
  subjectLoginList: `${PREFIX}subject/login_list/`,
  subjectLogin: `${PREFIX}subject/login/`,
  memberSwitch: '/passport/member/switch/',
  // Invitations (issue 13)
  inviteByMobile: `${PREFIX}invite/mobile/`,
  inviteByEmail: `${PREFIX}invite/email/`,
  inviteByChat: `${PREFIX}invite/chat/`,
  inviteByLink: `${PREFIX}invite/link/`,
  /** GET; the page goes in the path: `invite/list/2/` (`invite/list/` is page 1). */
  inviteList: `${PREFIX}invite/list/`,
  inviteCancel: `${PREFIX}invite/cancel/`,
  inviteResend: `${PREFIX}invite/resend/`,
  inviteUpdate: `${PREFIX}invite/update/`,
  inviteCheck: `${PREFIX}invite/check/`,
  inviteSendCode: `${PREFIX}invite/send_code/`,
  inviteAccept: `${PREFIX}invite/accept/`,
  deputyLeave: `${PREFIX}deputy/leave/`,
  // Manager transfer (issue 13)
  managerSendOldCode: `${PREFIX}manager/old/send_code/`,
  managerVerifyOld: `${PREFIX}manager/old/verify/`,
  managerCheckNew: `${PREFIX}manager/check_new/`,
  managerStart: `${PREFIX}manager/start/`,
  managerSendNewCode: `${PREFIX}manager/new/send_code/`,
  managerVerifyNew: `${PREFIX}manager/new/verify/`,
  managerTransfer: `${PREFIX}manager/transfer/`,
  managerAbandon: `${PREFIX}manager/abandon/`,
  managerPending: `${PREFIX}manager/pending/`,
} as const;

export type AffiliatePath = (typeof affiliatePaths)[keyof typeof affiliatePaths];

/** `user_identity_id` of a person's own, non-organisation identity (spec §3: '0' by default). */
export const PERSONAL_IDENTITY = '0';

/** Paged lists (spec §9): page 1, 10 a page by default; at most 100 a page. */
export const PAGE_DEFAULTS = { page: 1, page_size: 10 } as const;
export const MAX_PAGE_SIZE = 100;
