import { operationRoute } from '../../adapters/operation-route';
import { PassportError } from '../../errors';
import {
  answerIssued,
  provedInvitee,
  sendInvitationCode,
  signInAccepted,
} from '../../flows/organisation-invitations';
import {
  acceptInvitation,
  cancelInvitation,
  checkInvitation,
  invitationCodeTarget,
  inviteByChat,
  inviteByEmail,
  inviteByLink,
  inviteByMobile,
  listInvitations,
  resendInvitation,
  updateInvitation,
} from '../../operations/organisation/invitations';
import { affiliatePaths as paths } from '../../protocol';
import {
  AcceptedData,
  CodeSentData,
  IssuedInvitationData,
  PageParams,
  invitationSchemas as schemas,
} from '../../schemas/invitations';

/**
 * Invitations: the operations of src/operations/organisation/invitations.ts. A send is admitted in the
 * operation and delivered once it has committed; acceptance proves the invitee before it and signs the
 * new member in through completeSignIn after it (src/flows/organisation-invitations.ts).
 */

/** Issued and resent invitations: the message goes out after the commit; the answer is the invitation. */
const issuing = { data: IssuedInvitationData, after: answerIssued };

export const inviteByMobileRoute = operationRoute(inviteByMobile, {
  method: 'POST',
  schema: schemas.inviteByMobile,
  at: [['aff', paths.inviteByMobile]],
  ...issuing,
});

export const inviteByEmailRoute = operationRoute(inviteByEmail, {
  method: 'POST',
  schema: schemas.inviteByEmail,
  at: [['aff', paths.inviteByEmail]],
  ...issuing,
});

export const inviteByChatRoute = operationRoute(inviteByChat, {
  method: 'POST',
  schema: schemas.inviteByChat,
  at: [['aff', paths.inviteByChat]],
  ...issuing,
});

export const inviteByLinkRoute = operationRoute(inviteByLink, {
  method: 'POST',
  schema: schemas.inviteByLink,
  at: [['aff', paths.inviteByLink]],
  ...issuing,
});

export const inviteListFirst = operationRoute(listInvitations, {
  method: 'GET',
  schema: schemas.inviteList,
  at: [['aff', paths.inviteList]],
  input: (request) => ({ ...request.query, page: 1 }),
});

export const inviteList = operationRoute(listInvitations, {
  method: 'GET',
  schema: { ...schemas.inviteList, params: PageParams },
  at: [['aff', `${paths.inviteList}:page/`]],
  input: (request) => {
    // The page in the path; anything but a page number is a 404 like any unknown path.
    if (!/^[1-9][0-9]{0,5}$/.test(request.params.page)) throw new PassportError('notFound');
    return { ...request.query, page: Number(request.params.page) };
  },
});

export const inviteCancel = operationRoute(cancelInvitation, {
  method: 'POST',
  schema: schemas.inviteCancel,
  at: [['aff', paths.inviteCancel]],
});

export const inviteResend = operationRoute(resendInvitation, {
  method: 'POST',
  schema: schemas.inviteResend,
  at: [['aff', paths.inviteResend]],
  ...issuing,
});

export const inviteUpdate = operationRoute(updateInvitation, {
  method: 'POST',
  schema: schemas.inviteUpdate,
  at: [['aff', paths.inviteUpdate]],
});

export const inviteCheck = operationRoute(checkInvitation, {
  method: 'POST',
  schema: schemas.inviteCheck,
  at: [['aff', paths.inviteCheck]],
});

export const inviteSendCode = operationRoute(invitationCodeTarget, {
  method: 'POST',
  schema: schemas.inviteSendCode,
  data: CodeSentData,
  at: [['aff', paths.inviteSendCode]],
  after: (app, request, _reply, { output }) => sendInvitationCode(app, request, output),
});

export const inviteAccept = operationRoute(acceptInvitation, {
  method: 'POST',
  schema: schemas.inviteAccept,
  data: AcceptedData,
  at: [['aff', paths.inviteAccept]],
  principal: (app, request, input) => provedInvitee(app, request, input),
  after: signInAccepted,
});
