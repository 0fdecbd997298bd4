import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../errors';
import { rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';
import { type ChatMessage, DeliveryError, type MailMessage, type SmsMessage } from './providers';

/**
 * The outbound gate: the one way an SMS, e-mail or chat message leaves the server. A message is first
 * admitted (which charges its budgets), then delivered through the admission; a provider failure
 * gives the recipient's cooldown back and answers DELIVERY_FAILED. No other module calls a provider
 * (test/delivery-gate.test.ts holds the source to that).
 *
 * What is admitted, and against what (the numbers are `Limits`; docs/security.md, "The outbound gate"):
 * - a one-time code: the code route's rules (admitCode) — a cooldown and hourly count per target (for
 *   strangers per number, slowing down past the count; for the owner's lane its own), the count per
 *   client address and target, the count per client address. The challenge is asked for by the flows
 *   that send codes (`risk.require(…, 'sendCode')`), before they ask for a code.
 * - an invitation or its resend (admitInvitation): the same challenge rule as the code sends (counted
 *   together with them per address, device and recipient), then budgets per client address and per
 *   sender account, then the recipient's cooldown and hourly count, which every message another person
 *   sends to that recipient shares.
 * - a notice an operator's action sends (admitNotice, a waitlist admission): the recipient's cooldown
 *   and hourly count; the operator is signed in to the console and each entry is admitted once.
 * - a security notice to the account's own verified channel (admitAccountNotice: a password reset or
 *   change): an hourly count of its own per channel, never the recipient's cooldown or count, which
 *   anyone who invites that number or address can spend; a stranger must not silence the notice.
 */

/** A message and the channel it goes out on. */
export type Outbound =
  | { channel: 'sms'; message: SmsMessage }
  | { channel: 'email'; message: MailMessage }
  | { channel: 'chat'; message: ChatMessage };

/** What a recipient is reached on: the code and invitation channels, as the risk rules key them. */
export type RecipientChannel = 'mobile' | 'email' | 'chat';

/** A send the gate let through: only an admission can be delivered. */
export class Admission {
  /** @internal made by the gate only */
  constructor(
    /** The recipient's cooldown this send armed, in ms (the `retry_time` a route reports). */
    readonly cooldownMs: number,
    private readonly giveBack: () => Promise<void>,
  ) {}

  /** Gives the recipient's cooldown back: the message was not sent after all. */
  release(): Promise<void> {
    return this.giveBack();
  }
}

/** A code send as the code route keys it (src/domain/codes). */
export interface CodeAdmission {
  channel: 'mobile' | 'email';
  /** The target, with the lane's key when the lane keeps counts of its own (the owner's, a proof). */
  key: string;
  /**
   * The code's purpose, for the cooldown of a proven sender (below): the account's own verifications
   * (a second verification, a change of mobile, of password) each wait only for their own last code.
   */
  purpose: number;
  /** Strangers' sends: they share a target's counts, slow down past the hourly count, and are refused per address. */
  stranger: boolean;
  /** The client address. */
  ip: string;
  /**
   * The sender proved more than the number: a device or a session of the account (the owner's lane),
   * or the account's password (a second verification). Such sends are bounded by their own lane's
   * counts, not the client address's: strangers behind the same address (an office, a carrier NAT) who
   * spend its sends never hold the owner back there.
   */
  proven?: boolean;
}

export interface InvitationAdmission {
  /** The account sending (whose name the message carries). */
  sender: string;
  channel: RecipientChannel;
  /** The normalised mobile, e-mail or chat id. */
  to: string;
}

export interface DeliveryGate {
  admitCode(send: CodeAdmission): Promise<Admission>;
  admitInvitation(request: FastifyRequest, send: InvitationAdmission): Promise<Admission>;
  admitNotice(send: { channel: RecipientChannel; to: string }): Promise<Admission>;
  admitAccountNotice(send: { channel: 'mobile' | 'email'; to: string }): Promise<Admission>;
  /** Hands an admitted message to its provider; on failure releases the admission and throws DELIVERY_FAILED. */
  deliver(admission: Admission, outbound: Outbound): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    gate: DeliveryGate;
  }
}

const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createGate(app: FastifyInstance): DeliveryGate {
  const { store, runtime } = app;
  const limits = runtime.limits;

  /** Arms a cooldown, or refuses with `refusal` and the seconds left on the armed one. */
  async function armCooldown(key: string, ms: number, refusal: 'codeCooldown' | 'sendCooldown') {
    const now = runtime.now();
    if (await store.setIfAbsent(key, String(now + ms), ms)) return;
    const left = Number(await store.get(key)) - now;
    throw new PassportError(refusal, { retry_time: secondsUntil(Number.isFinite(left) ? left : ms) });
  }

  /** Charges a fixed-window budget; past it, SEND_LIMIT with the seconds until the window ends. */
  async function charge(key: string, budget: number, windowMs: number): Promise<void> {
    const count = await store.incr(key, windowMs);
    const now = runtime.now();
    // The window's end, for the refusal's retry time (the store keeps no readable expiry).
    if (count === 1) await store.set(`${key}:until`, String(now + windowMs), windowMs);
    if (count <= budget) return;
    const until = Number(await store.get(`${key}:until`));
    throw new PassportError('sendLimit', {
      retry_time: secondsUntil((Number.isFinite(until) ? until : now + windowMs) - now),
    });
  }

  /** The recipient's cooldown and hourly count, shared by every message other people send to it. */
  async function admitToRecipient(channel: RecipientChannel, to: string): Promise<Admission> {
    const cooldownKey = `gate:cooldown:${channel}:${to}`;
    await armCooldown(cooldownKey, limits.sendCooldownMs, 'sendCooldown');
    const release = () => store.delete(cooldownKey);
    try {
      await charge(`gate:recipient:${channel}:${to}`, limits.messagesPerRecipientPerHour, HOUR);
    } catch (error) {
      await release();
      throw error;
    }
    return new Admission(limits.sendCooldownMs, release);
  }

  /**
   * The strangers' cooldown for a target after `sent` sends this hour: the usual one up to the hourly cap,
   * then doubling with each send past it (2, 4, 8 … times), never longer than sendSlowCooldownMaxMs.
   */
  function slowedCooldown(sent: number): number {
    const past = sent - limits.sendPerTargetPerHour + 1;
    if (past <= 0) return limits.sendCooldownMs;
    const slowed = limits.sendCooldownMs * 2 ** Math.min(past, 30);
    return Math.max(limits.sendCooldownMs, Math.min(slowed, limits.sendSlowCooldownMaxMs));
  }

  return {
    async admitCode({ channel, key, purpose, stranger, ip, proven = false }) {
      const ipKey = rateLimitKey(ip);
      if (!proven && (await store.incr(`send:ip:${ipKey}`, HOUR)) > limits.sendPerIpPerHour) {
        throw new PassportError('rateLimited');
      }
      // Strangers share one cooldown per number whatever the purpose: it paces the codes (and so the
      // guesses) they get. A proven sender's cooldown is per purpose, so one of the account's own
      // verifications never makes the person wait for another; their hourly count stays one per lane.
      const cooldownKey = stranger
        ? `send:cooldown:${channel}:${key}`
        : `send:cooldown:${channel}:${key}:${purpose}`;
      const hourlyKey = `send:target:${channel}:${key}`;
      // Strangers' sends slow down past the hourly cap instead of refusing (the owner on a new device
      // shares it): each further send waits twice as long as the one before, up to sendSlowCooldownMaxMs.
      const cooldownMs = stranger ? slowedCooldown(await store.count(hourlyKey)) : limits.sendCooldownMs;
      await armCooldown(cooldownKey, cooldownMs, 'codeCooldown');
      if (stranger) {
        // What refuses strangers is the cap per source (target and client address): an
        // address that hammers a number locks itself, never the number.
        if (
          (await store.incr(`send:source:${channel}:${key}:${ipKey}`, HOUR)) > limits.sendPerTargetPerHour
        ) {
          await store.delete(cooldownKey);
          throw new PassportError('codeSendLimit');
        }
        await store.incr(hourlyKey, HOUR);
      } else if ((await store.incr(hourlyKey, HOUR)) > limits.sendPerTargetPerHour) {
        throw new PassportError('codeSendLimit');
      }
      return new Admission(cooldownMs, () => store.delete(cooldownKey));
    },

    async admitInvitation(request, { sender, channel, to }) {
      // The code sends' challenge rule, on the same counters: invitations and codes to one number, or
      // from one address or device, add up.
      await app.risk.require(request, 'sendCode', { target: `${channel}:${to}`, knownDevice: false });
      await charge(`gate:ip:${rateLimitKey(request.ip)}`, limits.invitationsPerIpPerHour, HOUR);
      await charge(`gate:sender:${sender}`, limits.invitationsPerSenderPerHour, HOUR);
      return admitToRecipient(channel, to);
    },

    admitNotice: ({ channel, to }) => admitToRecipient(channel, to),

    async admitAccountNotice({ channel, to }) {
      // Only the account's own changes send these, each behind its own proof (a code, the current
      // password): the count bounds a thief who repeats a change, nobody else can charge it.
      await charge(`gate:account-notice:${channel}:${to}`, limits.accountNoticesPerChannelPerHour, HOUR);
      return new Admission(0, async () => {});
    },

    async deliver(admission, outbound) {
      const { delivery } = app;
      try {
        if (outbound.channel === 'sms') await delivery.sms.send(outbound.message);
        else if (outbound.channel === 'email') await delivery.mail.send(outbound.message);
        else await delivery.chat.send(outbound.message);
      } catch (error) {
        // The recipient got nothing: no cooldown is charged for it.
        await admission.release();
        // The provider's message may carry the recipient: log the error, answer the catalogue's text.
        app.log.warn(
          {
            err:
              error instanceof DeliveryError ? error : new DeliveryError('provider error', { cause: error }),
            channel: outbound.channel,
          },
          'delivery failed',
        );
        throw new PassportError('deliveryFailed', {}, { cause: error });
      }
    },
  };
}
