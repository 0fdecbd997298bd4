import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import type { Admission } from '../delivery/gate';
import { invitationChat, invitationMail, invitationSms } from '../delivery/templates';
import { accountInfo } from '../domain/accounts/account-info';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import type { Channel } from '../domain/codes/codes';
import { infosOf, stringListOf } from '../domain/organisations/infos';
import {
  INVITE_TICKET_SHAPE,
  type InvitationRow,
  invitationView,
  inviteTicketHash,
  newInviteTicket,
  roleKeysOf,
  shownContact,
  stateOf,
} from '../domain/organisations/invitations';
import {
  type Actor,
  isUniqueViolation,
  type PageArgs,
  pageOf,
  storedPermissions,
  window,
} from '../domain/organisations/organisations';
import { assertNewPassword } from '../domain/passwords/policy';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { safeRedirect } from '../lib/redirect';
import { CodeType, ORGANISATION_LIMITS } from '../protocol';
import { activeIdentity } from './identity-sign-in';

/**
 * Invitations (issue 13): created by a member holding `invitation:create` for an identity (its name and
 * roles, never more than the inviter holds), delivered by SMS, e-mail or the workplace chat webhook or
 * shown as a link; resent (a new ticket, the old link dead), updated or cancelled while pending; checked
 * and accepted by whoever proves the invited mobile or e-mail (signed in with it, or a code sent to it),
 * or, for chat and link invitations, by whoever holds the link — once: acceptance is a conditional
 * UPDATE on `state = 'pending'` inside the transaction that makes the membership.
 */

type InviteChannel = InvitationRow['channel'];

/** The code purpose that proves an invited contact while accepting (a registration code, type 1). */
const INVITE_CODE_PURPOSE = CodeType.register;
/** Invitation codes use one lane whatever device asks, so the code sent is the code checked. */
const LANE = '' as const;

interface InviteInput {
  subject_uid: string;
  deputy_name: string;
  role_keys?: string | readonly string[] | undefined;
  next_url?: string | undefined;
  link?: string | undefined;
  extra?: string | undefined;
  contact?: string | undefined;
}

/** The roles an invitation grants: each exists, is not banned and grants only what the actor holds. */
async function grantableRoles(app: FastifyInstance, actor: Actor, keys: readonly string[]) {
  const roles = [];
  for (const key of keys) {
    const role = await app.organisations.roleIn(actor.subject.id, key);
    if (Number(role.is_banned) === 1) throw new PassportError('roleBanned');
    app.organisations.assertGrantable(actor, storedPermissions(role.permissions));
    roles.push(role);
  }
  return roles;
}

/** The link of a ticket: the page (a same-origin path or an allowed origin, default /invite) with the ticket. */
function linkOf(app: FastifyInstance, page: string | undefined, ticket: string): string {
  const { publicOrigin, allowedOrigins } = app.config;
  const target = safeRedirect(page ?? '/invite', publicOrigin, allowedOrigins, '/invite');
  const url = new URL(target, publicOrigin);
  url.searchParams.set('invite_ticket', ticket);
  return url.toString();
}

const checkedNext = (app: FastifyInstance, next: string | undefined) =>
  next === undefined ? null : safeRedirect(next, app.config.publicOrigin, app.config.allowedOrigins);

function contactOf(app: FastifyInstance, channel: InviteChannel, raw: string | undefined): string | null {
  if (channel === 'link') return null;
  const value = (raw ?? '').trim();
  if (value === '') throw new PassportError('invalidParam', { field: 'contact' });
  if (channel === 'mobile') return mobileOf(app, value);
  if (channel === 'email') return emailOf(value);
  if (value.length > ORGANISATION_LIMITS.chatContactMax || /[\s<>]/.test(value))
    throw new PassportError('invalidParam', { field: 'contact' });
  return value;
}

/**
 * Lets an invitation's message through the outbound gate (its budgets and the challenge), before the
 * invitation is written or its ticket rotated: a refused send changes nothing. Null for a link.
 */
async function admitted(app: FastifyInstance, request: FastifyRequest, sender: User, row: InvitationRow) {
  if (row.channel === 'link' || row.contact === null) return null;
  return app.gate.admitInvitation(request, { sender: sender.id, channel: row.channel, to: row.contact });
}

/** Sends an admitted invitation over its channel; a provider failure is DELIVERY_FAILED. */
async function deliver(
  app: FastifyInstance,
  request: FastifyRequest,
  row: InvitationRow,
  link: string,
  admission: Admission | null,
) {
  if (admission === null || row.contact === null) return;
  const subject = await app.db
    .selectFrom('subjects')
    .select('name')
    .where('id', '=', row.subject_id)
    .executeTakeFirstOrThrow();
  // The names go through the templates' fixed wording, which shows them only as `shownName` allows.
  const text = {
    organisation: subject.name,
    inviter: row.inviter_name,
    link,
    appName: app.config.appName,
    language: languageOf(request),
  };
  await app.gate.deliver(
    admission,
    row.channel === 'mobile'
      ? { channel: 'sms', message: invitationSms(row.contact, text) }
      : row.channel === 'email'
        ? { channel: 'email', message: invitationMail(row.contact, text) }
        : { channel: 'chat', message: invitationChat(row.contact, text) },
  );
}

/**
 * Creates an invitation on a channel and delivers it. `permissions` are what the caller must hold:
 * `invitation:create`, or what adding a member asks (user_role/create_user, which invites too).
 */
export async function invite(
  app: FastifyInstance,
  request: FastifyRequest,
  channel: InviteChannel,
  input: InviteInput,
  permissions: readonly string[] = ['invitation:create'],
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  for (const permission of permissions) orgs.require(actor, permission);
  const keys = stringListOf('role_keys', input.role_keys, ORGANISATION_LIMITS.inviteRolesMax) ?? [];
  await grantableRoles(app, actor, keys);
  const contact = contactOf(app, channel, input.contact);
  const extra = extraOf(input.extra);
  const now = app.runtime.now();
  const { ticket, hash } = newInviteTicket(app);
  const row: InvitationRow = {
    id: orgs.newId(),
    subject_id: actor.subject.id,
    inviter_deputy_id: actor.deputy.id,
    inviter_name: actor.deputy.deputy_name,
    channel,
    contact,
    deputy_id: orgs.newId(),
    deputy_name: input.deputy_name,
    role_keys: JSON.stringify(keys),
    next_url: checkedNext(app, input.next_url),
    extra,
    ticket_hash: hash,
    state: 'pending',
    resent_count: 0,
    expires_at: now + app.config.inviteTtlSeconds * 1000,
    accepted_by: null,
    accepted_at: null,
    created_at: now,
    updated_at: now,
  };
  const link = linkOf(app, input.link, ticket);
  const admission = await admitted(app, request, user, row);
  await app.db.insertInto('invitations').values(row).execute();
  try {
    await deliver(app, request, row, link, admission);
  } catch (error) {
    // Nobody got it: it does not stay behind as a pending invitation.
    await app.db.deleteFrom('invitations').where('id', '=', row.id).execute();
    throw error;
  }
  return { ...invitationView(row, now), invite_ticket: ticket, link };
}

function extraOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '{}';
  if (Buffer.byteLength(raw, 'utf8') > ORGANISATION_LIMITS.extraMaxBytes)
    throw new PassportError('invalidParam', { field: 'extra' });
  return infosOf('extra', raw) ?? '{}';
}

/** An invitation of the actor's subject, or INVITATION_NOT_FOUND (also for another subject's). */
async function invitationIn(app: FastifyInstance, subjectId: string, id: string) {
  const row = await app.db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', id)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!row) throw new PassportError('invitationNotFound');
  return row;
}

/** Refuses what an accepted or cancelled invitation can no longer do. */
function assertOpen(row: InvitationRow) {
  if (row.state === 'accepted') throw new PassportError('invitationUsed');
  if (row.state === 'cancelled') throw new PassportError('invitationCancelled');
}

/** A subject's invitations, newest first, paged, filtered by state (`invitation:read`). */
export async function listInvitations(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { subject_uid: string; state?: string | undefined },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'invitation:read');
  const now = app.runtime.now();
  let base = app.db.selectFrom('invitations').where('subject_id', '=', actor.subject.id);
  if (input.state === 'pending') base = base.where('state', '=', 'pending').where('expires_at', '>', now);
  else if (input.state === 'expired')
    base = base.where('state', '=', 'pending').where('expires_at', '<=', now);
  else if (input.state === 'accepted' || input.state === 'cancelled')
    base = base.where('state', '=', input.state);
  const { limit, offset } = window(input);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    rows.map((r) => invitationView(r, now)),
    Number(count.n),
    { page: input.page, page_size: limit },
  );
}

/** Cancels an invitation (`invitation:cancel`): its link dies. */
export async function cancelInvitation(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; invite_id: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'invitation:cancel');
  const row = await invitationIn(app, actor.subject.id, input.invite_id);
  assertOpen(row);
  const now = app.runtime.now();
  const done = await app.db
    .updateTable('invitations')
    .set({ state: 'cancelled', updated_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new PassportError('invitationUsed');
  return invitationView({ ...row, state: 'cancelled', updated_at: now }, now);
}

/** Sends an invitation again with a new ticket and expiry (`invitation:update`); the old link dies. */
export async function resendInvitation(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; invite_id: string; next_url?: string | undefined; link?: string | undefined },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'invitation:update');
  const row = await invitationIn(app, actor.subject.id, input.invite_id);
  assertOpen(row);
  const admission = await admitted(app, request, user, row);
  const now = app.runtime.now();
  const { ticket, hash } = newInviteTicket(app);
  const next: InvitationRow = {
    ...row,
    ticket_hash: hash,
    resent_count: Number(row.resent_count) + 1,
    expires_at: now + app.config.inviteTtlSeconds * 1000,
    next_url: input.next_url === undefined ? row.next_url : checkedNext(app, input.next_url),
    updated_at: now,
  };
  const done = await app.db
    .updateTable('invitations')
    .set({
      ticket_hash: next.ticket_hash,
      resent_count: next.resent_count,
      expires_at: next.expires_at,
      next_url: next.next_url,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) {
    await admission?.release();
    throw new PassportError('invitationUsed');
  }
  const link = linkOf(app, input.link, ticket);
  await deliver(app, request, next, link, admission);
  return { ...invitationView(next, now), invite_ticket: ticket, link };
}

/** Changes the name or roles of an open invitation (`invitation:update`; roles only within one's own). */
export async function updateInvitation(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    subject_uid: string;
    invite_id: string;
    deputy_identity_id?: string | undefined;
    deputy_name?: string | undefined;
    role_keys?: string | readonly string[] | undefined;
  },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'invitation:update');
  const row = await invitationIn(app, actor.subject.id, input.invite_id);
  if (input.deputy_identity_id !== undefined && input.deputy_identity_id !== row.deputy_id)
    throw new PassportError('invitationNotFound');
  assertOpen(row);
  const keys = stringListOf('role_keys', input.role_keys, ORGANISATION_LIMITS.inviteRolesMax);
  if (keys) await grantableRoles(app, actor, keys);
  const now = app.runtime.now();
  const next = {
    ...row,
    deputy_name: input.deputy_name ?? row.deputy_name,
    role_keys: keys ? JSON.stringify(keys) : row.role_keys,
    updated_at: now,
  };
  const done = await app.db
    .updateTable('invitations')
    .set({ deputy_name: next.deputy_name, role_keys: next.role_keys, updated_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new PassportError('invitationUsed');
  return invitationView(next, now);
}

/** The invitation of a ticket, or the reason it cannot be used. */
async function liveInvitation(app: FastifyInstance, ticket: string) {
  if (!INVITE_TICKET_SHAPE.test(ticket)) throw new PassportError('invitationNotFound');
  const row = await app.db
    .selectFrom('invitations')
    .selectAll()
    .where('ticket_hash', '=', inviteTicketHash(app, ticket))
    .executeTakeFirst();
  if (!row) throw new PassportError('invitationNotFound');
  assertOpen(row);
  if (stateOf(row, app.runtime.now()) === 'expired') throw new PassportError('invitationExpired');
  return row;
}

/** What the holder of a ticket may see: organisation, inviter, role names, masked contact. */
export async function checkInvitation(app: FastifyInstance, input: { invite_ticket: string }) {
  const row = await liveInvitation(app, input.invite_ticket);
  const subject = await app.db
    .selectFrom('subjects')
    .select('name')
    .where('id', '=', row.subject_id)
    .executeTakeFirstOrThrow();
  const keys = roleKeysOf(row);
  const roles =
    keys.length === 0
      ? []
      : await app.db
          .selectFrom('roles')
          .select(['role_key', 'role_name'])
          .where('subject_id', '=', row.subject_id)
          .where('role_key', 'in', keys)
          .execute();
  return {
    subject_name: subject.name,
    inviter_name: row.inviter_name,
    role_names: keys.map((k) => roles.find((r) => r.role_key === k)?.role_name ?? k),
    channel: row.channel,
    contact: row.channel === 'chat' ? `${(row.contact ?? '').slice(0, 2)}***` : shownContact(row),
    expires_at: Number(row.expires_at),
  };
}

/** Sends a code to the invited mobile or e-mail (never to an address the caller chooses). */
export async function sendInvitationCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { invite_ticket: string },
) {
  const row = await liveInvitation(app, input.invite_ticket);
  if ((row.channel !== 'mobile' && row.channel !== 'email') || row.contact === null)
    throw new PassportError('invitationSignInRequired');
  const channel: Channel = row.channel;
  await app.risk.require(request, 'sendCode', { target: `${channel}:${row.contact}`, knownDevice: false });
  const sent = await app.codes.send({
    channel,
    target: row.contact,
    purpose: INVITE_CODE_PURPOSE,
    ip: request.ip,
    language: languageOf(request),
    lane: LANE,
  });
  return { contact: mask(row.contact), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

const holdsContact = (user: User, row: InvitationRow) =>
  (row.channel === 'mobile' && user.mobile === row.contact) ||
  (row.channel === 'email' && user.email === row.contact);

/**
 * Accepts an invitation. Signed in: a mobile or e-mail invitation needs the account to hold that
 * contact, or a code sent to it (`code`); chat and link invitations go to whoever holds the link.
 * Signed out: a mobile or e-mail invitation registers the contact with `password` and `code` in the
 * same call (an existing account must sign in first). The membership and the role links are made in
 * the transaction that marks the invitation accepted; the new identity becomes the session's.
 */
export async function acceptInvitation(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    invite_ticket: string;
    password?: string | undefined;
    code?: string | undefined;
    extra?: string | undefined;
  },
) {
  const row = await liveInvitation(app, input.invite_ticket);
  if (input.extra !== undefined) extraOf(input.extra);
  const bound = row.channel === 'mobile' || row.channel === 'email';
  const session = request.session;
  let user: User;
  let newUser = false;
  if (session) {
    user = session.user;
    if (bound && !holdsContact(user, row)) {
      if (input.code === undefined) throw new PassportError('invitationContactMismatch');
      await verifyContact(app, row, input.code);
    }
  } else {
    if (!bound || row.contact === null) throw new PassportError('invitationSignInRequired');
    if (input.password === undefined || input.code === undefined)
      throw new PassportError('invitationSignInRequired');
    const password = await assertNewPassword(input.password, {
      appName: app.config.appName,
      identifiers: [row.contact],
    });
    await verifyContact(app, row, input.code);
    const identifier = { kind: row.channel as 'mobile' | 'email', value: row.contact };
    const created = await app.accounts.create(identifier, await app.passwords.hash(password));
    // The contact is proven but has an account: its owner signs in and accepts.
    if (!created) throw new PassportError('invitationSignInRequired');
    user = created;
    newUser = true;
  }
  if (user.cancel_requested_at !== null || user.erased_at !== null)
    throw new PassportError('invitationAccountClosed');
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');

  const now = app.runtime.now();
  const keys = roleKeysOf(row);
  await app.db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('invitations')
      .set({ state: 'accepted', accepted_by: user.id, accepted_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('state', '=', 'pending')
      .where('ticket_hash', '=', row.ticket_hash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new PassportError('invitationUsed');
    // The roles as they are now, within what the inviter holds now.
    const roles =
      keys.length === 0
        ? []
        : await trx
            .selectFrom('roles')
            .selectAll()
            .where('subject_id', '=', row.subject_id)
            .where('role_key', 'in', keys)
            .execute();
    if (roles.length !== keys.length) throw new PassportError('roleNotFound');
    if (roles.some((r) => Number(r.is_banned) === 1)) throw new PassportError('roleBanned');
    const inviter = row.inviter_deputy_id
      ? await trx
          .selectFrom('deputies')
          .selectAll()
          .where('id', '=', row.inviter_deputy_id)
          .executeTakeFirst()
      : undefined;
    if (!inviter || Number(inviter.is_frozen) === 1) throw new PassportError('invitationCancelled');
    const held = await app.organisations.permissionsOf(inviter, trx);
    for (const role of roles)
      for (const p of storedPermissions(role.permissions))
        if (!held.has(p)) throw new PassportError('grantExceedsOwn', { permission: p });
    try {
      await trx
        .insertInto('deputies')
        .values({
          id: row.deputy_id,
          subject_id: row.subject_id,
          user_id: user.id,
          deputy_name: row.deputy_name,
          is_manager: 0,
          is_frozen: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new PassportError('alreadyMember');
      throw error;
    }
    for (const role of roles)
      await trx
        .insertInto('deputy_roles')
        .values({ deputy_id: row.deputy_id, role_id: role.id, subject_id: row.subject_id, created_at: now })
        .execute();
  });

  // Accepting while signed in proves nothing of the account: the session keeps its verification time.
  const next = await app.sessions.signIn(request, reply, user.id, row.deputy_id, {
    keepVerification: Boolean(session),
  });
  if (newUser) await app.devices.remember(user.id, request, reply);
  const org = await activeIdentity(app, next);
  return { ...accountInfo(next, { newUser }), org, next_url: row.next_url };
}

async function verifyContact(app: FastifyInstance, row: InvitationRow, code: string) {
  if ((row.channel !== 'mobile' && row.channel !== 'email') || row.contact === null)
    throw new PassportError('invitationContactMismatch');
  await app.codes.verify({
    channel: row.channel,
    target: row.contact,
    purpose: INVITE_CODE_PURPOSE,
    code,
    lane: LANE,
  });
}
