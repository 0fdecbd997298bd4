import { type TObject, type TProperties, Type } from 'typebox';
import { ORGANISATION_LIMITS as L, MAX_PAGE_SIZE } from '../protocol';
import { AccountInfo, ActiveOrg } from './account';
import { Code, CommonQuery, FORM, MixMode } from './common';
import { Infos, PageOf } from './organisations';
import { NewPassword } from './register';

/** Request and response schemas of invitations and the manager transfer (issue 13); responses are documentation. */

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Name = Type.String({ minLength: 1, maxLength: L.nameMax });
const Ticket = Type.String({ minLength: 1, maxLength: 128 });
const RoleKeys = Type.Union(
  [
    Type.String({ maxLength: 4096 }),
    Type.Array(Type.String({ maxLength: 128 }), { maxItems: L.inviteRolesMax }),
  ],
  { description: 'a JSON array of role_key' },
);
const Url = Type.String({ maxLength: 2048 });
/** Kept so older clients' calls still pass: the link is the server's own (PUBLIC_ORIGIN/invite). */
const IgnoredLink = Type.String({
  maxLength: 2048,
  description: 'ignored: the link is the server’s own, its public origin’s /invite page',
});
const Extra = Type.String({
  maxLength: L.extraMaxBytes * 2,
  description: `a JSON object, as text; at most ${L.extraMaxBytes} bytes`,
});
const Channel = Type.Union([Type.Literal('mobile'), Type.Literal('email')]);
const subjectUid = { subject_uid: Id };

const body = <P extends TProperties>(fields: P) =>
  Type.Object({ ...fields, mix_mode: MixMode }, { additionalProperties: true });
const post = <B extends TObject>(summary: string, b: B, tag = 'invitations') => ({
  summary,
  tags: [tag],
  consumes: FORM,
  querystring: CommonQuery,
  body: b,
});
const get = <P extends TProperties>(summary: string, fields: P, tag = 'invitations') => ({
  summary,
  tags: [tag],
  querystring: Type.Object({ ...CommonQuery.properties, ...fields }, { additionalProperties: true }),
});

const InvitationChannel = Type.Union([
  Type.Literal('mobile'),
  Type.Literal('email'),
  Type.Literal('chat'),
  Type.Literal('link'),
]);
const invitationFields = {
  invite_id: Type.String(),
  sec_subject_uid: Type.String(),
  channel: InvitationChannel,
  contact: Type.Union([Type.String(), Type.Null()], {
    description: 'the masked mobile or e-mail, the chat id, or null for a link',
  }),
  deputy_identity_id: Type.String({ description: 'the identity the invitation creates on acceptance' }),
  deputy_name: Type.String(),
  role_keys: Type.Array(Type.String()),
  state: Type.Union([
    Type.Literal('pending'),
    Type.Literal('accepted'),
    Type.Literal('cancelled'),
    Type.Literal('expired'),
  ]),
  inviter_identity_id: Type.Union([Type.String(), Type.Null()]),
  inviter_name: Type.String(),
  next_url: Type.Union([Type.String(), Type.Null()]),
  extra: Infos,
  resent_count: Type.Integer(),
  expires_at: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
};
export const InvitationData = Type.Object(invitationFields, { description: 'an invitation' });
/** On creating or resending: the ticket and its link, shown this once. */
export const IssuedInvitationData = Type.Object(
  { ...invitationFields, invite_ticket: Type.String(), link: Type.String() },
  { description: 'an invitation just issued, with its ticket and link' },
);
export const InvitationPage = PageOf(InvitationData);
export const PreviewData = Type.Object({
  subject_name: Type.String(),
  inviter_name: Type.String(),
  role_names: Type.Array(Type.String()),
  channel: InvitationChannel,
  contact: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Integer(),
});
export const CodeSentData = Type.Object({
  contact: Type.String(),
  retry_time: Type.Integer(),
  expires_in: Type.Integer(),
});
/** The account signed in as the new identity, which is now active, and where to go next. */
export const AcceptedData = Type.Object({
  ...AccountInfo.properties,
  org: ActiveOrg,
  next_url: Type.Union([Type.String(), Type.Null()]),
});
export const TicketData = Type.Object({ transfer_ticket: Type.String(), expires_in: Type.Integer() });
export const CandidateData = Type.Object({
  user_identity_id: Type.String(),
  deputy_name: Type.String(),
  contact: Type.String({ description: 'where the candidate’s code would go, masked' }),
  channel: Channel,
});
export const TransferData = Type.Object(
  {
    transfer_id: Type.String(),
    sec_subject_uid: Type.String(),
    from_identity_id: Type.String(),
    from_name: Type.String(),
    to_identity_id: Type.String(),
    to_name: Type.String(),
    contact: Type.String({ description: 'where the new manager’s code goes, masked' }),
    channel: Channel,
    role: Type.Union([Type.Literal('from'), Type.Literal('to')], { description: 'the caller’s side' }),
    expires_at: Type.Integer(),
  },
  { description: 'the pending transfer' },
);
export const PendingData = Type.Object({
  transfer: Type.Union([TransferData, Type.Null()]),
  manager: Type.Union([
    Type.Object(
      { user_identity_id: Type.String(), deputy_name: Type.String() },
      { description: 'the current manager' },
    ),
    Type.Null(),
  ]),
});
export const Flagged = Type.Object({}, { additionalProperties: Type.Boolean() });

const inviteFields = {
  ...subjectUid,
  deputy_name: Name,
  role_keys: Type.Optional(RoleKeys),
  next_url: Type.Optional(Url),
  link: Type.Optional(IgnoredLink),
  extra: Type.Optional(Extra),
};

export const invitationSchemas = {
  inviteByMobile: post(
    'Invite a mobile number by SMS (invitation:create)',
    body({ ...inviteFields, contact: Type.String({ minLength: 1, maxLength: 32 }) }),
  ),
  inviteByEmail: post(
    'Invite an e-mail address (invitation:create)',
    body({ ...inviteFields, contact: Type.String({ minLength: 1, maxLength: 254 }) }),
  ),
  inviteByChat: post(
    'Invite a workplace-chat user by webhook (invitation:create)',
    body({ ...inviteFields, contact: Type.String({ minLength: 1, maxLength: L.chatContactMax }) }),
  ),
  inviteByLink: post('Create a shareable invitation link (invitation:create)', body(inviteFields)),
  inviteList: get('A subject’s invitations, paged with the page in the path (invitation:read)', {
    ...subjectUid,
    page_size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 }),
    state: Type.Optional(
      Type.Union([
        Type.Literal('pending'),
        Type.Literal('accepted'),
        Type.Literal('cancelled'),
        Type.Literal('expired'),
      ]),
    ),
  }),
  inviteCancel: post('Cancel an invitation (invitation:cancel)', body({ ...subjectUid, invite_id: Id })),
  inviteResend: post(
    'Send an invitation again with a new ticket; the old link dies (invitation:update)',
    body({ ...subjectUid, invite_id: Id, next_url: Type.Optional(Url), link: Type.Optional(IgnoredLink) }),
  ),
  inviteUpdate: post(
    'Change the name or roles of an open invitation (invitation:update)',
    body({
      ...subjectUid,
      invite_id: Id,
      deputy_identity_id: Type.Optional(Id),
      deputy_name: Type.Optional(Name),
      role_keys: Type.Optional(RoleKeys),
    }),
  ),
  inviteCheck: post('What an invitation shows before it is accepted', body({ invite_ticket: Ticket })),
  inviteSendCode: post('Send a code to the invited mobile or e-mail', body({ invite_ticket: Ticket })),
  inviteAccept: post(
    'Accept an invitation, signed in or registering in the same call',
    body({
      invite_ticket: Ticket,
      password: Type.Optional(NewPassword),
      code: Type.Optional(Code),
      extra: Type.Optional(Extra),
    }),
  ),
  deputyLeave: post(
    'Leave a subject (never its manager); the identity’s sessions end',
    body({ sec_subject_uid: Id }),
    'organisations',
  ),
  managerSendOldCode: post(
    'Manager transfer: a code to the manager’s own mobile or e-mail',
    body({ ...subjectUid, channel: Type.Optional(Channel) }),
    'manager transfer',
  ),
  managerVerifyOld: post(
    'Manager transfer: the manager’s code for a single-use ticket',
    body({ ...subjectUid, channel: Type.Optional(Channel), code: Code }),
    'manager transfer',
  ),
  managerCheckNew: get(
    'Manager transfer: whether a member can become the manager',
    { ...subjectUid, user_identity_id: Id },
    'manager transfer',
  ),
  managerStart: post(
    'Manager transfer: name the new manager with the manager’s ticket; a code (type 101) goes to them',
    body({ ...subjectUid, transfer_ticket: Ticket, user_identity_id: Id }),
    'manager transfer',
  ),
  managerSendNewCode: post(
    'Manager transfer: the new manager’s code again',
    body(subjectUid),
    'manager transfer',
  ),
  managerVerifyNew: post(
    'Manager transfer: the new manager’s code for a single-use ticket',
    body({ ...subjectUid, code: Code }),
    'manager transfer',
  ),
  managerTransfer: post(
    'Manager transfer: commit (the new manager’s ticket), atomically',
    body({ ...subjectUid, transfer_ticket: Ticket }),
    'manager transfer',
  ),
  managerAbandon: post('Manager transfer: either side abandons it', body(subjectUid), 'manager transfer'),
  managerPending: get(
    'Manager transfer: the pending transfer the caller is a side of',
    subjectUid,
    'manager transfer',
  ),
};

/** The page in the path; anything but a page number is a 404 like any unknown path. */
export const PageParams = Type.Object({
  page: Type.String({ maxLength: 200, description: 'the page number, 1 or more' }),
});
