import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database, WaitlistEntriesTable } from '../../db/schema';
import { PassportError } from '../../errors';
import { hmac, randomToken } from '../../lib/crypto';
import { mask } from '../../lib/identifiers';
import type { WaitlistEntry, WaitlistListData, WaitlistPlaceData } from '../../protocol';
import type { Channel } from '../codes/codes';
import { admissionMail, admissionSms } from './templates';

type Entry = Selectable<WaitlistEntriesTable>;
type State = Entry['state'];

/** Where a person not yet admitted is sent (the web app's page). */
export const WAITLIST_PAGE = '/join-waitlist';

export interface Waitlist {
  /** Adds a verified mobile or e-mail (or finds its entry) and answers the person's place. */
  join(input: {
    channel: Channel;
    target: string;
    note: string;
    language: 'zh' | 'en';
  }): Promise<WaitlistPlaceData>;
  list(state: State, page: number, pageSize: number): Promise<WaitlistListData>;
  /** Admits a waiting entry and sends its single-use sign-up link. */
  admit(id: string, operatorId: string): Promise<void>;
  /** What a sign-up link's token is worth. */
  admission(token: string): Promise<'admitted' | 'registered' | 'unknown'>;
  /**
   * The account guard: with WAITLIST on, a new account for an identifier needs its admission, which
   * this uses up (single use); otherwise WAITLIST_REQUIRED naming the waitlist page.
   */
  claim(identifier: { kind: Channel; value: string } | null, through?: Kysely<Database>): Promise<void>;
}

/**
 * The waitlist (docs/monitoring.md, "The waitlist"): entries by verified identifier, their place in
 * the queue, admissions by operators with a link whose token is kept as an HMAC, and the guard every
 * account creation passes.
 */
export function createWaitlist(app: FastifyInstance): Waitlist {
  const { db, runtime, config } = app;
  const tokenHash = (token: string) => hmac(app.secret, `waitlist|${token}`);

  async function placeOf(entry: Entry): Promise<WaitlistPlaceData> {
    const waiting = Number(
      (
        await db
          .selectFrom('waitlist_entries')
          .where('state', '=', 'waiting')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let position = 0;
    if (entry.state === 'waiting') {
      const ahead = await db
        .selectFrom('waitlist_entries')
        .where('state', '=', 'waiting')
        .where((eb) =>
          eb.or([
            eb('created_at', '<', entry.created_at),
            eb.and([eb('created_at', '=', entry.created_at), eb('id', '<', entry.id)]),
          ]),
        )
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      position = Number(ahead.n) + 1;
    }
    return { state: entry.state, position, waiting, joined_at: entry.created_at };
  }

  const entryOf = (channel: Channel, target: string) =>
    db
      .selectFrom('waitlist_entries')
      .selectAll()
      .where('channel', '=', channel)
      .where('target', '=', target)
      .executeTakeFirst();

  const view = (entry: Entry): WaitlistEntry => ({
    id: entry.id,
    channel: entry.channel,
    target: mask(entry.target),
    note: entry.note,
    state: entry.state,
    joined_at: entry.created_at,
    admitted_at: entry.admitted_at,
  });

  return {
    async join({ channel, target, note, language }) {
      const existing = await entryOf(channel, target);
      if (existing) {
        if (note && existing.state === 'waiting' && note !== existing.note) {
          await db.updateTable('waitlist_entries').set({ note }).where('id', '=', existing.id).execute();
        }
        return placeOf(existing);
      }
      const entry: Entry = {
        id: randomUUID(),
        channel,
        target,
        note,
        language,
        state: 'waiting',
        created_at: runtime.now(),
        admitted_at: null,
        admitted_by: null,
        token_hash: null,
        registered_at: null,
      };
      try {
        await db.insertInto('waitlist_entries').values(entry).execute();
        return placeOf(entry);
      } catch (error) {
        // The same person joining twice at once: the other request's entry stands.
        const raced = await entryOf(channel, target);
        if (!raced) throw error;
        return placeOf(raced);
      }
    },

    async list(state, page, pageSize) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('waitlist_entries')
          .selectAll()
          .where('state', '=', state)
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        db
          .selectFrom('waitlist_entries')
          .where('state', '=', state)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { entries: rows.map(view), total: Number(total.n), page, page_size: pageSize };
    },

    async admit(id, operatorId) {
      const entry = await db
        .selectFrom('waitlist_entries')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!entry) throw new PassportError('waitlistEntryNotFound');
      if (entry.state !== 'waiting') throw new PassportError('waitlistAlreadyAdmitted');
      const token = randomToken(24);
      const admitted = await db
        .updateTable('waitlist_entries')
        .set({
          state: 'admitted',
          admitted_at: runtime.now(),
          admitted_by: operatorId,
          token_hash: tokenHash(token),
        })
        .where('id', '=', id)
        .where('state', '=', 'waiting')
        .executeTakeFirst();
      if (Number(admitted.numUpdatedRows) !== 1) throw new PassportError('waitlistAlreadyAdmitted');
      const link = `${config.publicOrigin}/sign-up?waitlist_token=${token}`;
      try {
        const admission = await app.gate.admitNotice({ channel: entry.channel, to: entry.target });
        await app.gate.deliver(
          admission,
          entry.channel === 'mobile'
            ? { channel: 'sms', message: admissionSms(entry.target, link, config.appName, entry.language) }
            : {
                channel: 'email',
                message: admissionMail(entry.target, link, config.appName, entry.language),
              },
        );
      } catch (error) {
        // Nobody was told: the entry waits again, so the operator can retry.
        await db
          .updateTable('waitlist_entries')
          .set({ state: 'waiting', admitted_at: null, admitted_by: null, token_hash: null })
          .where('id', '=', id)
          .execute();
        throw error;
      }
    },

    async admission(token) {
      if (!token) return 'unknown';
      const entry = await db
        .selectFrom('waitlist_entries')
        .select('state')
        .where('token_hash', '=', tokenHash(token))
        .executeTakeFirst();
      return entry && entry.state !== 'waiting' ? entry.state : 'unknown';
    },

    async claim(identifier, through = db) {
      if (!config.waitlist) return;
      if (identifier) {
        const used = await through
          .updateTable('waitlist_entries')
          .set({ state: 'registered', registered_at: runtime.now() })
          .where('channel', '=', identifier.kind)
          .where('target', '=', identifier.value)
          .where('state', '=', 'admitted')
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 1) return;
      }
      throw new PassportError('waitlistRequired', { waitlist: WAITLIST_PAGE });
    },
  };
}
