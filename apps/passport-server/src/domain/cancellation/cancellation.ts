import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { recordEvents } from '../../events/outbox';
import { mask } from '../../lib/identifiers';
import { knownLanguage } from '../../lib/language';
import { imageUrl } from '../profile/images';
import type { CancellationRegistry, CancelScope } from './registry';

/** The ticket purpose of a cancellation (never a code type: no code is ever sent for it). */
export const CANCEL_TICKET_PURPOSE = 9001;
export const CANCEL_PURPOSES: ReadonlySet<number> = new Set([CANCEL_TICKET_PURPOSE]);

export type CancelWay = 'mobile' | 'email' | 'password';

/** The ways this account can prove it is its owner: a code to its mobile or e-mail, its password. */
export function verifyWays(user: User): { way: CancelWay; target: string }[] {
  const ways: { way: CancelWay; target: string }[] = [];
  if (user.mobile) ways.push({ way: 'mobile', target: mask(user.mobile) });
  if (user.email) ways.push({ way: 'email', target: mask(user.email) });
  if (user.password_hash) ways.push({ way: 'password', target: '' });
  return ways;
}

/** What blocks the cancellation and what it will take away, from the registry, read through `scope.db`. */
export async function cancelCheck(registry: CancellationRegistry, scope: CancelScope, user: User) {
  const blockers: { key: string; detail?: Record<string, unknown> }[] = [];
  for (const blocker of registry.blockers) {
    const detail = await blocker.check(scope, user);
    if (detail)
      blockers.push(Object.keys(detail).length ? { key: blocker.key, detail } : { key: blocker.key });
  }
  const losses: { key: string; count: number }[] = [];
  for (const loss of registry.losses) {
    const count = await loss.count(scope, user);
    if (count > 0) losses.push({ key: loss.key, count });
  }
  return {
    can_cancel: blockers.length === 0 && user.cancel_erase_at === null,
    blockers,
    losses,
    cooling_off_days: scope.config.cancelCoolingOffDays,
    ...(user.cancel_erase_at !== null ? { erase_at: Number(user.cancel_erase_at) } : {}),
  };
}

/**
 * Starts the cooling-off period and signs the account out everywhere: a conditional update (only an
 * account not already waiting), so two confirmations make one. Answers when the data will be erased.
 */
export async function startCoolingOff(
  trx: Kysely<Database>,
  userId: string,
  now: number,
  coolingOffDays: number,
): Promise<number> {
  const eraseAt = now + coolingOffDays * 86_400_000;
  const result = await trx
    .updateTable('users')
    .set({ cancel_requested_at: now, cancel_erase_at: eraseAt, updated_at: now })
    .where('id', '=', userId)
    .where('cancel_erase_at', 'is', null)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new PassportError('cancelAlreadyPending');
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  return eraseAt;
}

/**
 * CANCELLATION_PENDING while the account's cancellation is pending, read inside the transaction that
 * would give the account something erasure must not take (an organisation to manage). Its row is
 * locked (lockedAccount), so a confirmation landing at the same time waits for it or is seen by it.
 */
export async function assertStaying(trx: Kysely<Database>, userId: string): Promise<void> {
  const row = await lockedAccount(trx, userId);
  if (!row || row.cancel_erase_at !== null) throw new PassportError('cancellationPending');
}

/** assertStaying for the flows that are not operations yet. */
export const assertNotLeaving = (_app: FastifyInstance, trx: Kysely<Database>, userId: string) =>
  assertStaying(trx, userId);

/**
 * The account as it is now, its row locked (PostgreSQL) until the transaction ends: what gives the
 * account an organisation to manage and what confirms its cancellation read it first, so of two such
 * requests one waits for the other and sees what it did.
 */
export function lockedAccount(trx: Kysely<Database>, userId: string): Promise<User | undefined> {
  let read = trx.selectFrom('users').selectAll().where('id', '=', userId);
  if (onPostgres(trx)) read = read.forUpdate();
  return read.executeTakeFirst();
}

/** Withdraws a pending cancellation; the account is as it was (nothing was removed yet). */
export async function abandonCancellation(trx: Kysely<Database>, userId: string, now: number): Promise<void> {
  const result = await trx
    .updateTable('users')
    .set({ cancel_requested_at: null, cancel_erase_at: null, updated_at: now })
    .where('id', '=', userId)
    .where('cancel_erase_at', 'is not', null)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new PassportError('cancelNotPending');
}

/**
 * Erases every account whose cooling-off period is over: the user row becomes a tombstone (its id
 * stays, so it is never reused; identifiers, password, profile go, so the mobile or e-mail may
 * register afresh) and every eraser of the registry removes its rows, all in one transaction per
 * account. The account's row is read first (locked on PostgreSQL), so an abandon that lands first
 * wins. A blocker that holds at erasure (the person came to manage an organisation after confirming)
 * leaves the account pending, untouched, until a later run finds it clear. Answers the ids erased.
 */
export async function eraseDueAccounts(app: FastifyInstance): Promise<string[]> {
  const now = app.runtime.now();
  const due = await app.db
    .selectFrom('users')
    .select('id')
    .where('cancel_erase_at', '<=', now)
    .where('erased_at', 'is', null)
    .limit(500)
    .execute();
  const erased: string[] = [];
  for (const { id } of due) {
    const done = await app.db.transaction().execute(async (trx) => {
      let read = trx
        .selectFrom('users')
        .select(['mobile', 'email'])
        .where('id', '=', id)
        .where('cancel_erase_at', '<=', now)
        .where('erased_at', 'is', null);
      if (app.database.dialect === 'postgres') read = read.forUpdate();
      const user = await read.executeTakeFirst();
      if (!user) return false;
      for (const blocker of app.cancellation.blockers)
        if (blocker.holdsErasure && (await blocker.holdsErasure(trx, id))) return false;
      await eraseAccount(trx, app.cancellation, id, user, now);
      await recordEvents(
        trx,
        [
          {
            type: 'account.cancellation_completed',
            stream: `user:${id}`,
            actor: { kind: 'system' },
            targetUserId: id,
            data: {},
          },
        ],
        { at: now },
      );
      return true;
    });
    if (done) erased.push(id);
  }
  return erased;
}

/**
 * Makes the account a tombstone and runs every eraser, inside the caller's transaction (its row read,
 * and locked on PostgreSQL, first): the id and dates stay, the identifiers, password and profile go.
 */
export async function eraseAccount(
  trx: Kysely<Database>,
  registry: CancellationRegistry,
  id: string,
  identifiers: { mobile: string | null; email: string | null },
  now: number,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      mobile: null,
      email: null,
      username: null,
      password_hash: null,
      screen_name: '',
      description: '',
      birthday: null,
      gender: 0,
      avatar_key: null,
      name_set_at: null,
      language: null,
      erased_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  for (const eraser of registry.erasers) await eraser.erase(trx, id, identifiers);
}

/** Everything the account holds, as JSON, for the person to keep before confirming. */
export async function exportAccountData(db: Kysely<Database>, user: User, now: number) {
  const images = await db
    .selectFrom('images')
    .select(['key', 'kind', 'mime', 'width', 'height', 'size', 'review_state', 'created_at'])
    .where('owner_id', '=', user.id)
    .execute();
  const devices = await db
    .selectFrom('devices')
    .select(['first_seen_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', user.id)
    .execute();
  // Passkeys as the person's list shows them: no credential id, key or user handle.
  const passkeys = await db
    .selectFrom('passkeys')
    .select(['name', 'device_type', 'backed_up', 'created_at', 'last_used_at'])
    .where('user_id', '=', user.id)
    .orderBy('created_at')
    .execute();
  const updates = await db
    .selectFrom('profile_updates')
    .select(['namespace', 'field', 'at'])
    .where('user_id', '=', user.id)
    .orderBy('at', 'asc')
    .execute();
  // What each organisation's identity provider sent about the person over SCIM (docs/scim.md).
  const provisioned = await db
    .selectFrom('scim_users')
    .select(['subject_id', 'user_name', 'external_id', 'active', 'attributes', 'created_at', 'updated_at'])
    .where('user_id', '=', user.id)
    .orderBy('created_at')
    .execute();
  return {
    exported_at: now,
    account: {
      user_id: user.id,
      mobile: user.mobile ?? '',
      email: user.email ?? '',
      username: user.username ?? '',
      has_password: user.password_hash !== null,
      created_at: Number(user.created_at),
    },
    profile: {
      name: user.screen_name,
      description: user.description ?? '',
      birthday: user.birthday ?? '',
      gender: Number(user.gender ?? 0),
      avatar_url: user.avatar_key ? imageUrl(user.avatar_key) : '',
      language: knownLanguage(user.language) ?? ('' as const),
    },
    images: images.map((image) => ({
      ...image,
      width: Number(image.width),
      height: Number(image.height),
      size: Number(image.size),
      created_at: Number(image.created_at),
      url: imageUrl(image.key),
    })),
    devices: devices.map((d) => ({
      first_seen_at: Number(d.first_seen_at),
      last_seen_at: Number(d.last_seen_at),
      user_agent: d.user_agent ?? '',
    })),
    passkeys: passkeys.map((p) => ({
      name: p.name,
      device_type: p.device_type,
      backed_up: Number(p.backed_up) === 1,
      created_at: Number(p.created_at),
      last_used_at: p.last_used_at === null ? null : Number(p.last_used_at),
    })),
    profile_changes: updates.map((u) => ({ ...u, at: Number(u.at) })),
    provisioned: provisioned.map((p) => ({
      organisation_id: p.subject_id,
      user_name: p.user_name,
      external_id: p.external_id,
      active: Number(p.active) === 1,
      attributes: JSON.parse(p.attributes) as Record<string, unknown>,
      created_at: Number(p.created_at),
      updated_at: Number(p.updated_at),
    })),
  };
}
