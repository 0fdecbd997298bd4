import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccountNotice } from '../../delivery/account-notice';
import { type Language, PROVIDERS_NAMED_IN_NOTICES, type WayIn } from '../../delivery/templates';
import { knownLanguage } from '../../lib/language';
import type { Store } from '../../store/store';
import type { EventConsumer, StoredEvent } from '../dispatcher';

/** The sign-in notices' consumer name: its cursor in `event_cursors`. */
export const SIGN_IN_NOTICES_CONSUMER = 'sign-in-notices';

/**
 * A change older than this when its turn comes is not told (an hour): a new consumer starts from the
 * first event of the outbox, and a notice of last month's change is noise. The account centre's
 * recent changes list it all the same.
 */
export const SIGN_IN_NOTICE_FRESH_MS = 3_600_000;
/** Changes in an account's first minute are its sign-up (a provider's sign-up links as it creates). */
export const SIGN_UP_MS = 60_000;
/** How long an event's notice is remembered as sent: longer than it stays fresh. */
const SENT_MS = 2 * SIGN_IN_NOTICE_FRESH_MS;

type Channel = 'mobile' | 'email';

/** The events that add or replace a way in (`wayInOf`): the only ones the consumer is given. */
export const WAY_IN_EVENTS = [
  'account.identifier_bound',
  'account.identifier_changed',
  'account.password_set',
  'account.username_set',
  'account.third_party_linked',
  'account.factor_added',
  'passkey.added',
] as const;

/** The way in an event added or replaced, and the channel it put on the account (that one is not told). */
export function wayInOf(event: Pick<StoredEvent, 'type' | 'data'>): { wayIn: WayIn; added?: Channel } | null {
  const channel: Channel = event.data.channel === 'email' ? 'email' : 'mobile';
  switch (event.type) {
    case 'account.identifier_bound':
      return { wayIn: channel, added: channel };
    case 'account.identifier_changed':
      // The replaced one is told by the change itself (src/operations/account/identifiers.ts).
      return { wayIn: channel === 'mobile' ? 'mobile_changed' : 'email_changed', added: channel };
    case 'account.password_set':
      return { wayIn: 'password' };
    case 'account.username_set':
      return { wayIn: 'username' };
    case 'account.third_party_linked': {
      const named = PROVIDERS_NAMED_IN_NOTICES.find((name) => name === event.data.provider);
      return { wayIn: named ?? 'third_party' };
    }
    case 'account.factor_added':
      return { wayIn: 'authenticator' };
    case 'passkey.added':
      return { wayIn: 'passkey' };
    default:
      return null;
  }
}

export interface SignInNoticesOptions {
  db: Kysely<Database>;
  store: Store;
  /** The server's clock (ms). */
  now(): number;
  /** Sends one notice through the gate's account-notice count; never throws. */
  send(notice: AccountNotice, language: Language): Promise<void>;
  /** The server's log: notices not sent because their changes are stale say so, one line a batch. */
  log: Pick<FastifyBaseLogger, 'info'>;
}

/**
 * Tells the account when a way into it is added or replaced (docs/security.md, "Notices of a new way
 * in"): a mobile or e-mail bound or changed, a password or username set, a third-party account linked,
 * an authenticator app or a passkey added — whoever made the change, through whichever route. Each
 * verified channel the account has, but the one the change put on it, gets a short notice in the
 * person's saved language (else zh), in a fixed template. One place for every route that adds a way in:
 * the events are what they have in common. At least once from the dispatcher, at most once from here:
 * the event id is marked sent in the store before the sends, so a redelivery sends nothing twice.
 */
export function signInNoticesConsumer(options: SignInNoticesOptions): EventConsumer {
  const { db, store, now, send, log } = options;
  /** Tells one event's change; answers its age when it is too old to tell. */
  async function tell(event: StoredEvent): Promise<number | undefined> {
    const change = wayInOf(event);
    if (!change || !event.targetUserId) return undefined;
    const ageMs = now() - event.occurredAt;
    if (ageMs > SIGN_IN_NOTICE_FRESH_MS) return ageMs;
    const user = await db
      .selectFrom('users')
      .select(['mobile', 'email', 'language', 'created_at'])
      .where('id', '=', event.targetUserId)
      .executeTakeFirst();
    if (!user || event.occurredAt - Number(user.created_at) < SIGN_UP_MS) return undefined;
    const present = (
      [
        ['mobile', user.mobile],
        ['email', user.email],
      ] as const
    ).filter((entry): entry is readonly [Channel, string] => Boolean(entry[1]) && entry[0] !== change.added);
    if (present.length === 0) return undefined;
    // The account as it is now, not as it was then: a channel bound or changed after the event holds a
    // value the event never saw (a thief's new number must not hear of the owner's earlier change).
    const later = await db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', event.stream)
      .where('position', '>', event.position)
      .where('type', 'in', ['account.identifier_bound', 'account.identifier_changed'])
      .execute();
    const rebound = new Set(later.map((row) => (JSON.parse(row.data) as { channel?: unknown }).channel));
    const recipients = present.filter(([channel]) => !rebound.has(channel));
    if (recipients.length === 0) return undefined;
    if (!(await store.setIfAbsent(`notice:sign-in:${event.id}`, '1', SENT_MS))) return undefined;
    const language = knownLanguage(user.language) ?? 'zh';
    for (const [channel, to] of recipients)
      await send({ kind: { wayIn: change.wayIn }, channel, to }, language);
    return undefined;
  }
  async function handleBatch(events: readonly StoredEvent[]): Promise<void> {
    let count = 0;
    let first: { event: StoredEvent; ageMs: number } | undefined;
    try {
      for (const event of events) {
        const ageMs = await tell(event);
        if (ageMs === undefined) continue;
        count += 1;
        first ??= { event, ageMs };
      }
    } finally {
      // Not lost: too late to be worth telling, which an operator must be able to tell apart. One line
      // a batch: a new consumer meets the outbox's whole backlog after an upgrade.
      if (first)
        log.info(
          { count, firstEvent: first.event.id, firstType: first.event.type, firstAgeMs: first.ageMs },
          'sign-in notices not sent: the changes are older than an hour',
        );
    }
  }
  return {
    name: SIGN_IN_NOTICES_CONSUMER,
    types: WAY_IN_EVENTS,
    handle: (event) => handleBatch([event]),
    handleBatch,
  };
}
