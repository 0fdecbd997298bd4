import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invoke, type Principal } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import type { User } from '../db/schema';
import { invitationChat, invitationMail, invitationSms } from '../delivery/templates';
import type { Channel } from '../domain/codes/codes';
import { holdsContact, liveInvitation } from '../domain/organisations/invitations';
import { assertNewPassword } from '../domain/passwords/policy';
import { PassportError } from '../errors';
import { eventContextOf } from '../events/record';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import {
  addMemberByInvitation,
  extraOf,
  type InvitationSend,
  withdrawUndelivered,
} from '../operations/organisation/invitations';
import { CodeType } from '../protocol';
import { completeSignIn, type SignInProof } from './complete-sign-in';
import { activeIdentity } from './identity-sign-in';

/**
 * The request's side of the invitation operations (src/operations/organisation/invitations.ts): what
 * needs the request and happens outside the operation's transaction — delivering an admitted message
 * after the commit, proving the invitee before acceptance (a code, a registration), sending the code,
 * and signing the new member in through completeSignIn after it.
 */

/** The code purpose that proves an invited contact while accepting (a registration code, type 1). */
const INVITE_CODE_PURPOSE = CodeType.register;
/** Invitation codes use one lane whatever device asks, so the code sent is the code checked. */
const LANE = '' as const;

/**
 * Delivers an invitation's admitted message once its change has committed; a provider failure is
 * DELIVERY_FAILED, and a first send that failed withdraws its invitation: nobody got it.
 */
export async function deliverInvitation(
  app: FastifyInstance,
  request: FastifyRequest,
  send: InvitationSend | null,
): Promise<void> {
  if (send === null) return;
  // The names go through the templates' fixed wording, which shows them only as `shownName` allows.
  const text = {
    organisation: send.organisation,
    inviter: send.inviter,
    link: send.link,
    appName: app.config.appName,
    language: languageOf(request),
  };
  try {
    await app.gate.deliver(
      send.admission,
      send.channel === 'mobile'
        ? { channel: 'sms', message: invitationSms(send.to, text) }
        : send.channel === 'email'
          ? { channel: 'email', message: invitationMail(send.to, text) }
          : { channel: 'chat', message: invitationChat(send.to, text) },
    );
  } catch (error) {
    // The caller hears DELIVERY_FAILED whatever the withdrawal meets (an invitation cancelled meanwhile).
    if (send.withdraw)
      await invoke(app, withdrawUndelivered, send.withdraw, principalOf(request), where(app, request)).catch(
        (failure: unknown) => app.log.warn({ err: failure }, 'withdrawing an undelivered invitation failed'),
      );
    throw error;
  }
}

/** A route's answer to an issued or resent invitation: its message delivered, the invitation. */
export async function answerIssued(
  app: FastifyInstance,
  request: FastifyRequest,
  _reply: FastifyReply,
  { output }: { output: { invitation: unknown; send: InvitationSend | null } },
) {
  await deliverInvitation(app, request, output.send);
  return output.invitation;
}

const where = (app: FastifyInstance, request: FastifyRequest) => {
  const { ip = null, deviceId = null } = eventContextOf(app, request);
  return { ip, deviceId };
};

/**
 * Adds a member with a role by inviting their mobile or e-mail (flows/organisation-members'
 * user_role/create_user, until that family runs as operations): the member-add operation, then its
 * message.
 */
export async function invite(
  app: FastifyInstance,
  request: FastifyRequest,
  channel: 'mobile' | 'email',
  input: { subject_uid: string; deputy_name: string; role_keys: readonly string[]; contact: string },
  // What the caller must hold (member:create, role:assign): the member-add operation declares it.
  _permissions?: readonly string[],
) {
  const issued = await invoke(
    app,
    addMemberByInvitation,
    {
      subject_uid: input.subject_uid,
      deputy_name: input.deputy_name,
      role_key: input.role_keys[0] ?? '',
      channel,
      contact: input.contact,
    },
    principalOf(request),
    where(app, request),
    { gate: gateFor(app, request) },
  );
  await deliverInvitation(app, request, issued.send);
  return issued.invitation;
}

/** Sends a code to the invited mobile or e-mail (the code route's rules); answers where, masked. */
export async function sendInvitationCode(
  app: FastifyInstance,
  request: FastifyRequest,
  target: { channel: Channel; contact: string },
) {
  const { channel, contact } = target;
  await app.risk.require(request, 'sendCode', { target: `${channel}:${contact}`, knownDevice: false });
  const sent = await app.codes.send({
    channel,
    target: contact,
    purpose: INVITE_CODE_PURPOSE,
    ip: request.ip,
    language: languageOf(request),
    lane: LANE,
  });
  return { contact: mask(contact), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

/** How the person accepting signed in, for completeSignIn once the membership is made. */
const accepting = new WeakMap<FastifyRequest, { newUser: boolean; proof: SignInProof }>();

/**
 * Proves who accepts, before the operation: signed in, the session's person — with the invited mobile
 * or e-mail proven by a code (`code`) when the account does not hold it; signed out, a mobile or e-mail
 * invitation registers its contact with `password` and `code` in the same call (an existing account
 * must sign in first). Chat and link invitations need an account.
 */
export async function provedInvitee(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    invite_ticket: string;
    password?: string | undefined;
    code?: string | undefined;
    extra?: string | undefined;
  },
): Promise<Principal> {
  const row = await liveInvitation(app.db, app.secret, input.invite_ticket, app.runtime.now());
  if (input.extra !== undefined) extraOf(input.extra);
  const bound = (row.channel === 'mobile' || row.channel === 'email') && row.contact !== null;
  const session = request.session;
  if (session) {
    accepting.set(request, { newUser: false, proof: 'session' });
    const user = session.user;
    if (!bound || holdsContact(user, row)) return { kind: 'person', user };
    if (input.code === undefined) throw new PassportError('invitationContactMismatch');
    const provenContact = await verifyContact(
      app,
      row.channel as 'mobile' | 'email',
      row.contact as string,
      input.code,
    );
    return { kind: 'person', user, provenContact };
  }
  if (!bound || input.password === undefined || input.code === undefined)
    throw new PassportError('invitationSignInRequired');
  const channel = row.channel as 'mobile' | 'email';
  const contact = row.contact as string;
  const password = await assertNewPassword(input.password, {
    appName: app.config.appName,
    identifiers: [contact],
  });
  await verifyContact(app, channel, contact, input.code);
  const created: User | null = await app.accounts.create(
    { kind: channel, value: contact },
    await app.passwords.hash(password),
  );
  // The contact is proven but has an account: its owner signs in and accepts.
  if (!created) throw new PassportError('invitationSignInRequired');
  accepting.set(request, { newUser: true, proof: channel === 'mobile' ? 'mobileCode' : 'emailCode' });
  return { kind: 'person', user: created };
}

async function verifyContact(
  app: FastifyInstance,
  channel: 'mobile' | 'email',
  contact: string,
  code: string,
) {
  await app.codes.verify({ channel, target: contact, purpose: INVITE_CODE_PURPOSE, code, lane: LANE });
  return { channel, value: contact };
}

/**
 * Signs the new member in to the identity the invitation made, through completeSignIn (the sign-in
 * event with its new-device flag, the session, the device cookie), once the membership has committed.
 */
export async function signInAccepted(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  done: { output: { deputy_id: string; next_url: string | null }; principal: Principal },
) {
  if (done.principal.kind !== 'person') throw new PassportError('notLoggedIn');
  const how = accepting.get(request) ?? { newUser: false, proof: 'session' as const };
  const account = await completeSignIn(app, request, reply, done.principal.user, {
    ...how,
    identity: done.output.deputy_id,
  });
  const session = request.session;
  const org = session ? await activeIdentity(app, session) : undefined;
  return { ...account, org, next_url: done.output.next_url };
}
