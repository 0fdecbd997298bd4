import { Type } from 'typebox';
import { newUserRow } from '../../domain/accounts/accounts';
import { emailOf } from '../../domain/accounts/targets';
import { domainOfEmail, isUniqueViolation, verifiedOwner } from '../../domain/enterprise/domains';
import { rolesOfDeputy } from '../../domain/organisations/actors';
import { removeDeputy, renameDeputy, setDeputyFrozen } from '../../domain/organisations/members';
import { normaliseName } from '../../domain/profile/names';
import {
  assertMatches,
  equalityOn,
  groupsOfMembers,
  holdForWrite,
  listResponse,
  parseFilter,
  patched,
  readUser,
  type ScimUserRow,
  scimInvalid,
  scimNotFound,
  scimTaken,
  type UserInput,
  userResource,
  writable,
} from '../../domain/scim/resources';
import { PassportError } from '../../errors';
import { defineOperation } from '../define';
import {
  Deleted,
  emitScim,
  ListQuery,
  organisationOf,
  ResourceDelete,
  ResourceId,
  ResourceWrite,
  ScimBody,
  type ScimContext,
  ScimListResponse,
  ScimResource,
  scimCaller,
} from './context';

/**
 * SCIM Users (RFC 7644 §3) of the key's organisation (docs/scim.md). A User is an account and its
 * membership: made (or, for an address the account holds already, linked) by the e-mail, which must be
 * in one of the organisation's verified domains; `active: false` freezes the membership and ends its
 * sessions in the organisation; DELETE removes the membership. The account itself stays the person's.
 */

/** A member's name: at most 32 characters, as the console's. */
const memberName = (input: UserInput) => (input.displayName ?? input.userName.split('@')[0]!).slice(0, 32);

async function rowOf(ctx: ScimContext, id: string): Promise<ScimUserRow> {
  const row = await ctx.tx
    .selectFrom('scim_users')
    .selectAll()
    .where('id', '=', id)
    .where('subject_id', '=', organisationOf(ctx))
    .executeTakeFirst();
  if (!row) throw scimNotFound('User');
  return row;
}

/** A User a write changes: its row held for the transaction, then read, at a version `If-Match` names. */
async function rowToWrite(ctx: ScimContext, id: string, ifMatch: string | undefined): Promise<ScimUserRow> {
  await holdForWrite(ctx.tx, 'scim_users', id);
  const row = await rowOf(ctx, id);
  assertMatches(ifMatch, Number(row.version));
  return row;
}

async function resourceOf(ctx: ScimContext, row: ScimUserRow) {
  const groups = await groupsOfMembers(ctx.tx, row.subject_id, [row.user_id]);
  return userResource(row, groups.get(row.user_id) ?? [], ctx.config.publicOrigin);
}

const memberOf = (ctx: ScimContext, userId: string) =>
  ctx.tx
    .selectFrom('deputies')
    .selectAll()
    .where('subject_id', '=', organisationOf(ctx))
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** The manager's membership is not the identity provider's to freeze or remove. */
function managerProtected(error: unknown): never {
  if (error instanceof PassportError && error.errorName === 'managerProtected')
    throw new PassportError('managerProtected', {
      scimType: 'mutability',
      detail: 'The organisation’s manager cannot be deactivated or removed over SCIM',
    });
  throw error;
}

/** The User a membership is applied for: its row's id, its account, whose account it is, its wait. */
interface Provisioned {
  scimId: string;
  userId: string;
  /** The create made the account: the organisation's own, it joins at once. */
  ownAccount: boolean;
  /** A membership SCIM made waits, frozen, for the person to accept it. */
  awaiting: boolean;
  /** The person declined the membership this User made: the User never makes it again. */
  declined: boolean;
}

/**
 * The membership as `active` says, when SCIM changes it: made (a create, or a reactivation of someone
 * the console removed), thawed, or frozen with its sessions in the organisation ended. A freeze or a
 * removal made in the console stands until `active` changes again (a profile push does not undo it);
 * an existing membership a create links is only frozen, never thawed. Renamed when the name changed.
 * A membership made for an account the organisation did not make waits, frozen, for the person to
 * accept it (SECURITY.md: adding an account to an organisation needs that person's acceptance); until
 * then `active: true` is kept in the User but thaws nothing. A membership the person declined is not
 * made again by this User, whatever its `active` does (the provider may delete the User and create it
 * anew: that asks again). `wasActive`: the stored `active`, null for a create. Answers whether the
 * membership awaits the person.
 */
async function applyMembership(
  ctx: ScimContext,
  user: Provisioned,
  input: UserInput,
  wasActive: boolean | null,
): Promise<boolean> {
  const { userId } = user;
  const subjectId = organisationOf(ctx);
  const now = ctx.now();
  const changed = wasActive === null || wasActive !== input.active;
  let member = await memberOf(ctx, userId);
  if (!member) {
    if (!changed || (wasActive !== null && !input.active) || user.declined) return user.awaiting;
    const awaiting = !user.ownAccount;
    // A first sign-in through the organisation's connection may make the same membership meanwhile:
    // its row stands (a unique violation would abort this transaction on PostgreSQL) and is applied to.
    const made = await ctx.tx
      .insertInto('deputies')
      .values({
        id: ctx.newId(),
        subject_id: subjectId,
        user_id: userId,
        deputy_name: memberName(input),
        is_manager: 0,
        is_frozen: input.active && !awaiting ? 0 : 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['subject_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(made.numInsertedOrUpdatedRows ?? 0n) === 1) {
      if (awaiting !== user.awaiting)
        await ctx.tx
          .updateTable('scim_users')
          .set({ awaiting_acceptance: awaiting ? 1 : 0 })
          .where('id', '=', user.scimId)
          .execute();
      return awaiting;
    }
    // The sign-in proved the person: their membership needs no acceptance.
    member = await memberOf(ctx, userId);
    if (!member) return user.awaiting;
  }
  if (input.displayName !== null && member.deputy_name !== memberName(input))
    await renameDeputy(ctx.tx, member.id, memberName(input), now);
  if (!changed || (wasActive === null && input.active) || (user.awaiting && input.active))
    return user.awaiting;
  if ((Number(member.is_frozen) === 1) !== input.active) return user.awaiting;
  await setDeputyFrozen(ctx.tx, member.id, input.active ? 0 : 1, now).catch(managerProtected);
  // A deactivated member keeps no session acting as them in the organisation.
  if (!input.active) await ctx.tx.deleteFrom('sessions').where('deputy_id', '=', member.id).execute();
  const roles = await rolesOfDeputy(ctx.tx, member.id);
  emitScim(
    ctx,
    input.active ? 'organisation.member.thawed' : 'organisation.member.frozen',
    { memberId: member.id, memberName: member.deputy_name, roleKeys: roles.map((r) => r.role_key) },
    userId,
  );
  return user.awaiting;
}

/** The account of the User's e-mail: in a verified domain of the organisation; linked, else made. */
async function accountFor(ctx: ScimContext, input: UserInput) {
  if (input.email === null)
    throw scimInvalid('invalidValue', 'The User needs an e-mail (emails, or a userName that is one)');
  let email: string;
  try {
    email = emailOf(input.email);
  } catch {
    throw scimInvalid('invalidValue', 'The User’s e-mail is not an e-mail address');
  }
  const domain = domainOfEmail(email);
  const owner = domain ? await verifiedOwner(ctx.tx, domain) : undefined;
  if (owner?.subject_id !== organisationOf(ctx))
    throw scimInvalid('invalidValue', 'The e-mail is not in one of the organisation’s verified domains');
  const existing = await ctx.tx
    .selectFrom('users')
    .select(['id', 'erased_at'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing) return { userId: existing.id, newAccount: false };
  let screenName: string | undefined;
  try {
    screenName = input.displayName ? normaliseName(input.displayName) : undefined;
  } catch {
    // A name the profile rules refuse leaves the generated one: the person can choose theirs.
  }
  const user = newUserRow(ctx.now(), { email, ...(screenName ? { screen_name: screenName } : {}) });
  // The account guards (the waitlist, when the deployment runs one) through this transaction: an
  // admission is spent only with the User made.
  try {
    if (!(await ctx.accounts.insert(user))) throw scimTaken('An account with this e-mail was made meanwhile');
  } catch (error) {
    if (error instanceof PassportError && error.errorName === 'waitlistRequired')
      throw new PassportError('waitlistRequired', {
        scimType: 'invalidValue',
        detail: 'The deployment admits new accounts from its waitlist: this e-mail has no admission',
      });
    throw error;
  }
  return { userId: user.id, newAccount: true };
}

const provisionedOf = (row: ScimUserRow): Provisioned => ({
  scimId: row.id,
  userId: row.user_id,
  ownAccount: Number(row.own_account) === 1,
  awaiting: Number(row.awaiting_acceptance) === 1,
  declined: row.declined_at !== null,
});

/** Which of the stored attributes a change touched, by name (never their values). */
function changedFields(before: ScimUserRow, input: UserInput): string[] {
  const old = JSON.parse(before.attributes) as Record<string, unknown>;
  const fields = new Set<string>();
  if (before.user_name !== input.userName) fields.add('userName');
  if (before.external_id !== input.externalId) fields.add('externalId');
  if ((Number(before.active) === 1) !== input.active) fields.add('active');
  for (const key of new Set([...Object.keys(old), ...Object.keys(input.attributes)]))
    if (JSON.stringify(old[key]) !== JSON.stringify(input.attributes[key])) fields.add(key);
  return [...fields].sort();
}

/** Writes a replaced or patched User over its row: the same account, its membership as it now says. */
async function replaceUser(ctx: ScimContext, row: ScimUserRow, input: UserInput) {
  const fields = changedFields(row, input);
  const now = ctx.now();
  try {
    await ctx.tx
      .updateTable('scim_users')
      .set({
        user_name: input.userName,
        user_name_key: input.userName.toLowerCase(),
        external_id: input.externalId,
        attributes: JSON.stringify(input.attributes),
        active: input.active ? 1 : 0,
        version: Number(row.version) + 1,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw scimTaken('Another User of the organisation has this userName');
    throw error;
  }
  await applyMembership(ctx, provisionedOf(row), input, Number(row.active) === 1);
  if (fields.length > 0)
    emitScim(ctx, 'organisation.scim_user.updated', { scimId: row.id, fields }, row.user_id);
  return resourceOf(ctx, await rowOf(ctx, row.id));
}

export const listScimUsers = defineOperation({
  name: 'scim.users.list',
  input: ListQuery,
  output: ScimListResponse,
  caller: scimCaller,
  emits: [],
  async run(ctx, input) {
    const subjectId = organisationOf(ctx);
    const parsed = parseFilter(input.filter);
    // `userName eq "…"`, what Okta and Entra ID ask before each create, is one indexed look-up.
    const userName = equalityOn(parsed, 'userName');
    let query = ctx.tx.selectFrom('scim_users').selectAll().where('subject_id', '=', subjectId);
    if (userName !== null) query = query.where('user_name_key', '=', userName.toLowerCase());
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    const groups = await groupsOfMembers(
      ctx.tx,
      subjectId,
      rows.map((r) => r.user_id),
    );
    const resources = rows.map((row) =>
      userResource(row, groups.get(row.user_id) ?? [], ctx.config.publicOrigin),
    );
    return listResponse(resources, userName !== null ? null : parsed, input);
  },
});

export const getScimUser = defineOperation({
  name: 'scim.users.get',
  input: ResourceId,
  output: ScimResource,
  caller: scimCaller,
  emits: [],
  run: async (ctx, input) => resourceOf(ctx, await rowOf(ctx, input.id)),
});

export const createScimUser = defineOperation({
  name: 'scim.users.create',
  input: Type.Object({ body: ScimBody }),
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.scim_user.provisioned', 'organisation.member.frozen', 'organisation.member.thawed'],
  async run(ctx, { body }) {
    const subjectId = organisationOf(ctx);
    const input = readUser(body);
    const taken = await ctx.tx
      .selectFrom('scim_users')
      .select('id')
      .where('subject_id', '=', subjectId)
      .where('user_name_key', '=', input.userName.toLowerCase())
      .executeTakeFirst();
    if (taken) throw scimTaken('A User of the organisation has this userName');
    const now = ctx.now();
    const id = ctx.newId();
    try {
      const { userId, newAccount } = await accountFor(ctx, input);
      await ctx.tx
        .insertInto('scim_users')
        .values({
          id,
          subject_id: subjectId,
          user_id: userId,
          user_name: input.userName,
          user_name_key: input.userName.toLowerCase(),
          external_id: input.externalId,
          attributes: JSON.stringify(input.attributes),
          active: input.active ? 1 : 0,
          version: 1,
          own_account: newAccount ? 1 : 0,
          awaiting_acceptance: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const awaiting = await applyMembership(
        ctx,
        { scimId: id, userId, ownAccount: newAccount, awaiting: false, declined: false },
        input,
        null,
      );
      const member = await memberOf(ctx, userId);
      emitScim(
        ctx,
        'organisation.scim_user.provisioned',
        {
          scimId: id,
          memberId: member?.id ?? '',
          newAccount,
          ...(awaiting ? { awaitingAcceptance: true } : {}),
        },
        userId,
      );
    } catch (error) {
      // The same userName, the same account or the same e-mail's new account, committed meanwhile.
      if (isUniqueViolation(error)) throw scimTaken('A User of the organisation has this userName or e-mail');
      throw error;
    }
    return resourceOf(ctx, await rowOf(ctx, id));
  },
});

export const replaceScimUser = defineOperation({
  name: 'scim.users.replace',
  input: ResourceWrite,
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.scim_user.updated', 'organisation.member.frozen', 'organisation.member.thawed'],
  async run(ctx, { id, ifMatch, body }) {
    const row = await rowToWrite(ctx, id, ifMatch);
    return replaceUser(ctx, row, readUser(body));
  },
});

export const patchScimUser = defineOperation({
  name: 'scim.users.patch',
  input: ResourceWrite,
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.scim_user.updated', 'organisation.member.frozen', 'organisation.member.thawed'],
  async run(ctx, { id, ifMatch, body }) {
    const row = await rowToWrite(ctx, id, ifMatch);
    const current = writable(await resourceOf(ctx, row));
    const operations = (body as { Operations?: unknown }).Operations;
    // A User's groups are its roles: they change through the Group, as RFC 7643 §4.1.2 reads them.
    if (
      Array.isArray(operations) &&
      operations.some((o) => /^groups\b/i.test(String((o as { path?: unknown })?.path ?? '')))
    )
      throw scimInvalid('mutability', 'groups is read-only: change the Group’s members');
    return replaceUser(ctx, row, readUser(patched(current, body)));
  },
});

export const deleteScimUser = defineOperation({
  name: 'scim.users.delete',
  input: ResourceDelete,
  output: Deleted,
  caller: scimCaller,
  emits: ['organisation.scim_user.deprovisioned', 'organisation.member.removed'],
  async run(ctx, input) {
    const row = await rowToWrite(ctx, input.id, input.ifMatch);
    const member = await memberOf(ctx, row.user_id);
    if (member) {
      const roles = await rolesOfDeputy(ctx.tx, member.id);
      await removeDeputy(ctx.tx, member.id).catch(managerProtected);
      emitScim(
        ctx,
        'organisation.member.removed',
        { memberId: member.id, memberName: member.deputy_name, roleKeys: roles.map((r) => r.role_key) },
        row.user_id,
      );
    }
    await ctx.tx.deleteFrom('scim_users').where('id', '=', row.id).execute();
    emitScim(
      ctx,
      'organisation.scim_user.deprovisioned',
      { scimId: row.id, memberId: member?.id ?? null },
      row.user_id,
    );
    return { deleted: true };
  },
});
