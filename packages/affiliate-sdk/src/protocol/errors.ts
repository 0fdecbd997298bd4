import { defineErrorRange, defineErrorTexts } from '@portico/account-sdk/protocol';

/**
 * The organisation range (16xx). Every one is a business failure (HTTP 200, the envelope tells it).
 * A caller who is not a member of a subject gets SUBJECT_NOT_FOUND whether the subject exists or not,
 * and MEMBER_NOT_FOUND / ROLE_NOT_FOUND likewise for ids outside the subject (docs/organisations.md).
 */
export const organisationErrors = /* @__PURE__ */ defineErrorRange('Organisations', 1600, 1699, [
  [1601, 'SUBJECT_NOT_FOUND', 200],
  [1602, 'SUBJECT_FROZEN', 200],
  [1603, 'MEMBER_NOT_FOUND', 200],
  [1604, 'MEMBER_FROZEN', 200],
  [1605, 'PERMISSION_DENIED', 200],
  [1606, 'ROLE_NOT_FOUND', 200],
  [1607, 'ROLE_EXISTS', 200],
  [1608, 'ROLE_BANNED', 200],
  [1609, 'GRANT_EXCEEDS_OWN', 200],
  [1610, 'UNKNOWN_PERMISSION', 200],
  [1611, 'MANAGER_PROTECTED', 200],
  [1612, 'ALREADY_MEMBER', 200],
  [1613, 'INFOS_INVALID', 200],
  [1614, 'IDENTIFIER_MISMATCH', 200],
  [1615, 'ROLE_KEY_RESERVED', 200],
  [1616, 'MANAGER_CONFLICT', 200],
  [1620, 'CANCELLATION_PENDING', 200],
  // The organisation requires a second factor and the account has none: `enrol` names what to set up.
  [1621, 'SECOND_FACTOR_REQUIRED', 200],
  // A membership SCIM made for an account that existed before waits for the person (docs/scim.md).
  [1622, 'MEMBER_AWAITING_ACCEPTANCE', 200],
  [1623, 'NOTHING_TO_ACCEPT', 200],
  // Invitations and the manager transfer (issue 13): 1640–1689
  [1640, 'INVITATION_NOT_FOUND', 200],
  [1641, 'INVITATION_EXPIRED', 200],
  [1642, 'INVITATION_CANCELLED', 200],
  [1643, 'INVITATION_USED', 200],
  [1644, 'INVITATION_CONTACT_MISMATCH', 200],
  [1645, 'INVITATION_SIGN_IN_REQUIRED', 200],
  [1646, 'INVITATION_ACCOUNT_CLOSED', 200],
  [1660, 'TRANSFER_NOT_FOUND', 200],
  [1661, 'TRANSFER_TICKET_INVALID', 200],
  [1662, 'TRANSFER_PENDING', 200],
  [1663, 'NEW_MANAGER_INVALID', 200],
  [1664, 'CONTACT_MISSING', 200],
] as const);

/** zh and en texts of the organisation range, for `errorCatalogue([...ERROR_TEXTS, organisationTexts])`. */
export const organisationTexts = /* @__PURE__ */ defineErrorTexts(organisationErrors, {
  SUBJECT_NOT_FOUND: ['组织不存在或你不是其成员', 'No such organisation, or you are not a member of it'],
  SUBJECT_FROZEN: ['该组织已被冻结', 'This organisation is frozen'],
  MEMBER_NOT_FOUND: ['成员不存在', 'No such member in this organisation'],
  MEMBER_FROZEN: ['该成员身份已被冻结', 'This member identity is frozen'],
  PERMISSION_DENIED: ['你没有执行此操作的权限', 'You do not have permission to do this'],
  ROLE_NOT_FOUND: ['角色不存在', 'No such role in this organisation'],
  ROLE_EXISTS: ['角色标识已存在', 'A role with this key already exists'],
  ROLE_BANNED: ['该角色已被禁用', 'This role is banned'],
  GRANT_EXCEEDS_OWN: ['不能授予你自己没有的权限', 'You cannot grant a permission you do not hold yourself'],
  UNKNOWN_PERMISSION: ['权限不存在', 'Unknown permission'],
  MANAGER_PROTECTED: [
    '不能对管理员执行此操作，请先转移管理员',
    'This cannot be done to the manager; transfer the manager role first',
  ],
  ALREADY_MEMBER: ['该账号已是组织成员', 'This account is already a member'],
  INFOS_INVALID: ['组织信息格式有误或过大', 'The organisation details are not valid JSON or are too large'],
  IDENTIFIER_MISMATCH: ['账号与当前登录账号不一致', 'The account does not match the signed-in account'],
  ROLE_KEY_RESERVED: ['该角色标识为系统保留', 'This role key is reserved'],
  MANAGER_CONFLICT: ['该组织已有管理员', 'This organisation already has a manager'],
  CANCELLATION_PENDING: [
    '该账号正在注销中，不能创建或接管组织；撤销注销后再试',
    'This account is being cancelled: it cannot create or take over an organisation until the cancellation is abandoned',
  ],
  MEMBER_AWAITING_ACCEPTANCE: [
    '该成员尚未接受组织的加入邀请，接受前不能解除冻结',
    'This member has not accepted the membership yet: it stays frozen until they do',
  ],
  NOTHING_TO_ACCEPT: ['没有等待你接受的组织成员身份', 'There is no membership waiting for you to accept'],
  SECOND_FACTOR_REQUIRED: [
    '该组织要求成员使用第二验证因素：请先设置通行密钥或身份验证器应用',
    'This organisation requires a second factor: set up a passkey or an authenticator app first',
  ],
  INVITATION_NOT_FOUND: ['邀请不存在或链接无效', 'No such invitation, or the link is not valid'],
  INVITATION_EXPIRED: ['邀请已过期，请联系邀请人重新发送', 'This invitation has expired; ask for a new one'],
  INVITATION_CANCELLED: ['邀请已被取消', 'This invitation was cancelled'],
  INVITATION_USED: ['邀请已被接受，不能再次使用', 'This invitation has already been accepted'],
  INVITATION_CONTACT_MISMATCH: [
    '该邀请发给了其他手机号或邮箱，请用它登录或验证发送到它的验证码',
    'This invitation was sent to another mobile or e-mail: sign in with it or verify the code sent to it',
  ],
  INVITATION_SIGN_IN_REQUIRED: ['请先登录再接受邀请', 'Sign in to accept this invitation'],
  INVITATION_ACCOUNT_CLOSED: [
    '该账号已注销或正在注销，不能加入组织',
    'A cancelled account cannot join an organisation',
  ],
  TRANSFER_NOT_FOUND: ['没有进行中的管理员转移', 'There is no pending manager transfer for you'],
  TRANSFER_TICKET_INVALID: [
    '验证已失效，请重新验证',
    'The verification has expired or was already used; verify again',
  ],
  TRANSFER_PENDING: [
    '该组织已有进行中的管理员转移',
    'A manager transfer is already pending in this organisation',
  ],
  NEW_MANAGER_INVALID: [
    '新管理员必须是未冻结的其他成员',
    'The new manager must be another member who is not frozen',
  ],
  CONTACT_MISSING: [
    '该账号没有可接收验证码的手机号或邮箱',
    'The account has no mobile or e-mail to send a code to',
  ],
});

/** Organisation code by stable name: `OrganisationErrorCode.roleBanned === 1608`. */
export const OrganisationErrorCode = /* @__PURE__ */ (() =>
  Object.fromEntries(
    Object.entries(organisationErrors.codes).map(([key, entry]) => [key, entry.code]),
  ))() as {
  readonly [K in keyof typeof organisationErrors.codes]: (typeof organisationErrors.codes)[K]['code'];
};

export type OrganisationErrorName = keyof typeof organisationErrors.codes;
