import { factorsOf } from '../../domain/factors/factors';
import {
  generateRecoveryCodes,
  RECOVERY_CODE_COUNT,
  recoveryCodeStatus,
} from '../../domain/factors/recovery-codes';
import {
  confirmTotp,
  removeTotp,
  startTotp,
  TOTP_ALGORITHM,
  TOTP_DIGITS,
  TOTP_ENROL_TTL_MS,
  TOTP_PERIOD,
  totpRow,
} from '../../domain/factors/totp';
import { hasSecondFactor, recordFirstFactor } from '../../domain/organisations/second-factor';
import { PassportError } from '../../errors';
import { Factors, RecoveryCodes, schema, TotpStarted } from '../../schemas/factors';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/**
 * The person's own authenticator app and recovery codes (docs/factors.md). Adding or replacing a way
 * to verify needs a fresh step-up; confirming a started enrolment does not (its start had one). The
 * code checks of a second verification and a step-up are flows (src/flows/second-verify.ts,
 * auth/verify), with the one-time codes.
 */

/** How recent a verification adding or removing a factor needs: the step-up window (limits.stepUpMaxAgeMs). */
const STEP_UP_SECONDS = 600;

/** factor/list: what the account has set up. */
export const listFactors = defineOperation({
  name: 'account.factor.list',
  input: schema.factorList.querystring,
  output: Factors,
  caller: caller.person,
  emits: [],
  async run(ctx) {
    const { user } = ctx.caller;
    const totp = await totpRow(ctx.tx, user.id);
    const codes = await recoveryCodeStatus(ctx.tx, user.id);
    const factors = await factorsOf(ctx.tx, user.id);
    return {
      totp: { enabled: totp?.confirmedAt != null, confirmed_at: totp?.confirmedAt ?? null },
      recovery_codes: { total: codes.total, remaining: codes.remaining, created_at: codes.createdAt },
      methods: [...(user.mobile ? ['sms'] : []), ...factors],
    };
  },
});

/** totp/start: a new secret for an authenticator app, pending until its first code. */
export const startTotpEnrolment = defineOperation({
  name: 'account.totp.start',
  input: schema.totpStart.body,
  output: TotpStarted,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  emits: [],
  async run(ctx) {
    const { user } = ctx.caller;
    const label = user.username ?? user.email ?? user.screen_name;
    const started = await startTotp(ctx.tx, ctx.secret, user.id, label, 'Portico', ctx.now());
    return {
      ...started,
      algorithm: TOTP_ALGORITHM,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD,
      expires_in: TOTP_ENROL_TTL_MS / 1000,
    };
  },
});

/**
 * totp/confirm: the first code of the app confirms it. The route charges the guess to the account's
 * factor budget before (src/routes/web/factors.ts) and gives it back after a right code.
 */
export const confirmTotpEnrolment = defineOperation({
  name: 'account.totp.confirm',
  input: schema.totpConfirm.body,
  output: Factors,
  caller: caller.person,
  emits: ['account.factor_added'],
  async run(ctx, input) {
    const hadFactor = await hasSecondFactor(ctx.tx, ctx.caller.user.id);
    await confirmTotp(ctx.tx, ctx.secret, ctx.caller.user.id, input.code, ctx.now());
    await recordFirstFactor(ctx.tx, ctx.caller.sessionId, hadFactor, ctx.now());
    emitForAccount(ctx, 'account.factor_added', { method: 'totp' });
    return listFactors.run(ctx, {});
  },
});

/** totp/remove: the authenticator app no longer verifies this account. */
export const removeTotpFactor = defineOperation({
  name: 'account.totp.remove',
  input: schema.totpRemove.body,
  output: Factors,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  emits: ['account.factor_removed'],
  async run(ctx) {
    if (!(await removeTotp(ctx.tx, ctx.caller.user.id))) throw new PassportError('factorNotEnrolled');
    emitForAccount(ctx, 'account.factor_removed', { method: 'totp' });
    return listFactors.run(ctx, {});
  },
});

/** recovery_code/generate: ten new codes, shown once; the old set stops working. */
export const generateRecoveryCodeSet = defineOperation({
  name: 'account.recovery_code.generate',
  input: schema.recoveryCodeGenerate.body,
  output: RecoveryCodes,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  emits: ['account.recovery_codes_generated'],
  async run(ctx) {
    const codes = await generateRecoveryCodes(ctx.tx, ctx.secret, ctx.caller.user.id, ctx.now());
    emitForAccount(ctx, 'account.recovery_codes_generated', { count: RECOVERY_CODE_COUNT });
    return { codes };
  },
});
