import { PassportError } from '../../errors';
import {
  acceptInvitation,
  cancelInvitation,
  checkInvitation,
  invite,
  listInvitations,
  resendInvitation,
  sendInvitationCode,
  updateInvitation,
} from '../../flows/organisation-invitations';
import { leaveSubject } from '../../flows/organisation-members';
import { affiliatePaths as paths } from '../../protocol';
import {
  AcceptedData,
  CodeSentData,
  Flagged,
  InvitationData,
  InvitationPage,
  IssuedInvitationData,
  PageParams,
  PreviewData,
  invitationSchemas as schemas,
} from '../../schemas/invitations';
import { flowRoute } from '../declare';

/** Invitations (flows/organisation-invitations), issue 13. */

export const inviteByMobile = flowRoute({
  method: 'POST',
  schema: schemas.inviteByMobile,
  data: IssuedInvitationData,
  at: [['aff', paths.inviteByMobile]],
  run: (app, request) => invite(app, request, 'mobile', request.body),
});

export const inviteByEmail = flowRoute({
  method: 'POST',
  schema: schemas.inviteByEmail,
  data: IssuedInvitationData,
  at: [['aff', paths.inviteByEmail]],
  run: (app, request) => invite(app, request, 'email', request.body),
});

export const inviteByChat = flowRoute({
  method: 'POST',
  schema: schemas.inviteByChat,
  data: IssuedInvitationData,
  at: [['aff', paths.inviteByChat]],
  run: (app, request) => invite(app, request, 'chat', request.body),
});

export const inviteByLink = flowRoute({
  method: 'POST',
  schema: schemas.inviteByLink,
  data: IssuedInvitationData,
  at: [['aff', paths.inviteByLink]],
  run: (app, request) => invite(app, request, 'link', { ...request.body, contact: undefined }),
});

export const inviteListFirst = flowRoute({
  method: 'GET',
  schema: schemas.inviteList,
  data: InvitationPage,
  at: [['aff', paths.inviteList]],
  run: (app, request) => listInvitations(app, request, { ...request.query, page: 1 }),
});

export const inviteList = flowRoute({
  method: 'GET',
  schema: { ...schemas.inviteList, params: PageParams },
  data: InvitationPage,
  at: [['aff', `${paths.inviteList}:page/`]],
  run: (app, request) => {
    const page = /^[1-9][0-9]{0,5}$/.test(request.params.page) ? Number(request.params.page) : Number.NaN;
    if (Number.isNaN(page)) throw new PassportError('notFound');
    return listInvitations(app, request, { ...request.query, page });
  },
});

export const inviteCancel = flowRoute({
  method: 'POST',
  schema: schemas.inviteCancel,
  data: InvitationData,
  at: [['aff', paths.inviteCancel]],
  run: (app, request) => cancelInvitation(app, request, request.body),
});

export const inviteResend = flowRoute({
  method: 'POST',
  schema: schemas.inviteResend,
  data: IssuedInvitationData,
  at: [['aff', paths.inviteResend]],
  run: (app, request) => resendInvitation(app, request, request.body),
});

export const inviteUpdate = flowRoute({
  method: 'POST',
  schema: schemas.inviteUpdate,
  data: InvitationData,
  at: [['aff', paths.inviteUpdate]],
  run: (app, request) => updateInvitation(app, request, request.body),
});

export const inviteCheck = flowRoute({
  method: 'POST',
  schema: schemas.inviteCheck,
  data: PreviewData,
  at: [['aff', paths.inviteCheck]],
  run: (app, request) => checkInvitation(app, request.body),
});

export const inviteSendCode = flowRoute({
  method: 'POST',
  schema: schemas.inviteSendCode,
  data: CodeSentData,
  at: [['aff', paths.inviteSendCode]],
  run: (app, request) => sendInvitationCode(app, request, request.body),
});

export const inviteAccept = flowRoute({
  method: 'POST',
  schema: schemas.inviteAccept,
  data: AcceptedData,
  at: [['aff', paths.inviteAccept]],
  run: (app, request, reply) => acceptInvitation(app, request, reply, request.body),
});

export const deputyLeave = flowRoute({
  method: 'POST',
  schema: schemas.deputyLeave,
  data: Flagged,
  at: [['aff', paths.deputyLeave]],
  run: (app, request) => leaveSubject(app, request, request.body),
});
