import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import { fieldOf } from '../challenge/challenges';

/**
 * Which rule guards a request:
 * - `signIn`: failures (recorded by the route) per target, per client address and per device;
 * - `sendCode`: bursts of code sends per address, device and target (each guarded request counts);
 * - `lookup`: bursts of "is this registered?" lookups per address and device (the enumeration oracle).
 */
export type RiskRule = 'signIn' | 'sendCode' | 'lookup';

export interface RiskSubject {
  /** The normalised target (an account identifier, a mobile, an e-mail), when the request names one. */
  target?: string;
  /**
   * The request presents a device token the target's account remembers (its owner, src/domain/devices):
   * the target's counters neither stop nor count it, so strangers hammering the target never put a
   * challenge in front of the owner. The address and device rules still apply.
   */
  knownDevice?: boolean;
}

export interface Risk {
  /**
   * Lets the request through when its rule is quiet, or when it carries a pass (`challenge_pass`
   * with the same `fp`) for this action, which it spends. Otherwise throws CHALLENGE_REQUIRED whose
   * data carries `verify_center_decision_conf` with a fresh challenge id.
   */
  require(request: FastifyRequest, rule: RiskRule, subject?: RiskSubject): Promise<void>;
  /** Counts a failed attempt (a wrong password or code) against the target, address and device. */
  recordFailure(request: FastifyRequest, subject?: RiskSubject): Promise<void>;
  /**
   * `require(…, 'signIn')` and `recordFailure` in one atomic step, for a guess whose verdict takes a
   * while (a password: argon2id): charges the failure counters first, as if the guess were wrong, and
   * past a threshold wants a pass as `require` does (refunding the charge when it throws). Settle the
   * charge once judged: a wrong guess keeps it (that is the failure recorded), `right()` gives it back
   * and clears the target as `recordSuccess` does, `refund()` gives it back when there was no verdict.
   * Read first and counted after the verdict, parallel wrong guesses all got through before any counted.
   */
  chargeFailure(request: FastifyRequest, subject?: RiskSubject): Promise<FailureCharge>;
  /** A success clears the target's failures (the address and device keep theirs). */
  recordSuccess(request: FastifyRequest, subject?: RiskSubject): Promise<void>;
  /** The action a request is keyed on: its route's URL pattern, never the raw path. */
  actionOf(request: FastifyRequest): string;
}

/** A failure charged before its verdict (`Risk.chargeFailure`). */
export interface FailureCharge {
  right(): Promise<void>;
  refund(): Promise<void>;
}

/** The field a resent request carries its pass in (body or query), next to `fp`. */
export const PASS_FIELD = 'challenge_pass';

/**
 * The route pattern as registered (`/passport/web/user/login/`), lower-cased, slashes collapsed and
 * the trailing one dropped. `//path`, `%2F`, case and trailing-slash variants either reach the same
 * route (and so the same pattern) or no route at all.
 */
export function normaliseAction(url: string): string {
  return (
    url
      .toLowerCase()
      .replace(/\/{2,}/g, '/')
      .replace(/\/+$/, '') || '/'
  );
}

/** The device a request says it comes from: `fp`, the `verifyFp` query or the `s_v_web_id` cookie. */
export function deviceOf(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const verifyFp = typeof query?.verifyFp === 'string' ? query.verifyFp : '';
  const device = fieldOf(request, 'fp') || verifyFp || request.cookies?.s_v_web_id || '';
  return device.length <= 128 ? device : '';
}

/**
 * The risk rules: when a request must pass a challenge first. Counters live in the store, keyed by
 * target, by client address (IPv6 by its /64, every textual form alike) and by device; none is keyed
 * by the request path. The thresholds are `Limits` (src/domain/challenge/limits.ts). The device key is what
 * the client says, so it only adds to the target and address rules; it cannot replace them.
 */
export function createRisk(app: FastifyInstance): Risk {
  const { store, challenge } = app;
  const limits = challenge.limits;
  const failureKeys = (request: FastifyRequest, subject: RiskSubject) => {
    const device = deviceOf(request);
    return {
      ip: `risk:fail:ip:${rateLimitKey(request.ip)}`,
      device: device ? `risk:fail:dev:${device}` : null,
      target: subject.target && !subject.knownDevice ? `risk:fail:target:${subject.target}` : null,
    };
  };

  /**
   * How far past the rule is (0: not past; 1: just past; 2: twice its count): it prices the challenge's
   * proof of work (src/domain/challenge/price.ts). `strict`: past means over the limit, not at it.
   */
  const past = (counts: number[], thresholds: number[], strict: boolean): number => {
    let score = 0;
    counts.forEach((count, i) => {
      const limit = thresholds[i] ?? Number.POSITIVE_INFINITY;
      if (strict ? count > limit : count >= limit) {
        score = Math.max(score, limit > 0 && Number.isFinite(limit) ? count / limit : 1, 1);
      }
    });
    return score;
  };

  async function demanded(request: FastifyRequest, rule: RiskRule, subject: RiskSubject): Promise<number> {
    if (rule === 'signIn') {
      const keys = failureKeys(request, subject);
      const [ip, device, target] = await Promise.all([
        store.count(keys.ip),
        keys.device ? store.count(keys.device) : 0,
        keys.target ? store.count(keys.target) : 0,
      ]);
      return past(
        [ip, device, target],
        [
          limits.challengeAfterIpFailures,
          limits.challengeAfterDeviceFailures,
          limits.challengeAfterTargetFailures,
        ],
        false,
      );
    }
    // Bursts: this request counts, and past the threshold each further one needs a pass.
    const window = limits.riskBurstWindowMs;
    const device = deviceOf(request);
    const ipKey = rateLimitKey(request.ip);
    const [perIp, perDevice, perTarget] =
      rule === 'sendCode'
        ? [
            limits.challengeAfterSendsPerIp,
            limits.challengeAfterSendsPerDevice,
            limits.challengeAfterSendsPerTarget,
          ]
        : [
            limits.challengeAfterLookupsPerIp,
            limits.challengeAfterLookupsPerDevice,
            Number.POSITIVE_INFINITY,
          ];
    const [ip, dev, target] = await Promise.all([
      store.incr(`risk:${rule}:ip:${ipKey}`, window),
      device ? store.incr(`risk:${rule}:dev:${device}`, window) : 0,
      subject.target && !subject.knownDevice && rule === 'sendCode'
        ? store.incr(`risk:${rule}:target:${subject.target}`, window)
        : 0,
    ]);
    return past([ip, dev, target], [perIp, perDevice, perTarget], true);
  }

  /** Lets a request with a pass for its action through (spending it); else CHALLENGE_REQUIRED. */
  async function passOrDemand(request: FastifyRequest, score: number, subject: RiskSubject): Promise<void> {
    const action = risk.actionOf(request);
    const pass = fieldOf(request, PASS_FIELD, 64);
    if (pass && (await challenge.redeem(pass, action, challenge.bindingOf(request)))) return;
    const signals =
      subject.target && !subject.knownDevice ? { risk: score, target: subject.target } : { risk: score };
    throw new PassportError('challengeRequired', await challenge.demand(action, undefined, signals));
  }

  const risk: Risk = {
    actionOf: (request) => normaliseAction(request.routeOptions.url ?? request.url.split('?')[0] ?? '/'),

    async require(request, rule, subject = {}) {
      const score = await demanded(request, rule, subject);
      if (score > 0) await passOrDemand(request, score, subject);
    },

    async chargeFailure(request, subject = {}) {
      const keys = failureKeys(request, subject);
      const window = limits.riskFailureWindowMs;
      const [ip, device, target] = await Promise.all([
        store.incr(keys.ip, window),
        keys.device ? store.incr(keys.device, window) : 0,
        keys.target ? store.incr(keys.target, window) : 0,
      ]);
      const giveBack = (...charged: (string | null)[]) =>
        Promise.all(
          charged.map((key) =>
            key
              ? store
                  .decrement(key)
                  .catch((error: unknown) => app.log.warn({ err: error }, 'risk refund failed'))
              : null,
          ),
        ).then(() => undefined);
      // This guess is the n-th: past the threshold (n > limit, as `count >= limit` read before it) it
      // needs a pass, whatever the others running beside it will be told.
      const score = past(
        [ip, device, target],
        [
          limits.challengeAfterIpFailures,
          limits.challengeAfterDeviceFailures,
          limits.challengeAfterTargetFailures,
        ],
        true,
      );
      if (score > 0) {
        try {
          await passOrDemand(request, score, subject);
        } catch (error) {
          await giveBack(keys.ip, keys.device, keys.target);
          throw error;
        }
      }
      return {
        async right() {
          await giveBack(keys.ip, keys.device);
          if (keys.target) await store.delete(keys.target);
        },
        refund: () => giveBack(keys.ip, keys.device, keys.target),
      };
    },

    async recordFailure(request, subject = {}) {
      const keys = failureKeys(request, subject);
      const window = limits.riskFailureWindowMs;
      await Promise.all([
        store.incr(keys.ip, window),
        keys.device ? store.incr(keys.device, window) : null,
        keys.target ? store.incr(keys.target, window) : null,
      ]);
    },

    async recordSuccess(request, subject = {}) {
      const { target } = failureKeys(request, subject);
      if (target) await store.delete(target);
    },
  };

  return risk;
}
