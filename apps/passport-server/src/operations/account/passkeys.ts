import type { Static } from 'typebox';
import { hasSecondFactor, recordFirstFactor } from '../../domain/organisations/second-factor';
import { proveAssertion } from '../../domain/passkeys/assertion';
import {
  answeredChallenge,
  assertOrigin,
  authenticationChallengeKey,
  authenticationOptions,
  CEREMONY_TTL_MS,
  clientDataOf,
  parseAuthentication,
  parseRegistration,
  registrationChallengeKey,
  registrationOptions,
  verifyRegistration,
} from '../../domain/passkeys/ceremony';
import {
  insertPasskey,
  keepsAWayInWithout,
  lockAccount,
  ownPasskey,
  PASSKEYS_PER_ACCOUNT,
  passkeysOf,
  passkeyView,
  userHandleOf,
} from '../../domain/passkeys/passkeys';
import { PassportError } from '../../errors';
import { defaultLimits } from '../../limits';
import {
  type CeremonyOptions,
  Passkey,
  PasskeyList,
  PasskeyLoginBody,
  PasskeyOptions,
  PasskeyOptionsBody,
  PasskeyProven,
  PasskeyRegisterBody,
  PasskeyRemoveBody,
  PasskeyRemoved,
  PasskeyRenameBody,
} from '../../schemas/passkeys';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/**
 * Passkeys (docs/factors.md): registering one from a signed-in session, signing in with one without an
 * identifier, and the account's list. Each ceremony's challenge is kept in the store (`ctx.oneTime`)
 * until it is answered once or expires.
 */

/** Adding or removing a way in needs a verification this recent (the flows' step-up window). */
const STEP_UP_SECONDS = defaultLimits.stepUpMaxAgeMs / 1000;

/** The passkey's default name, when the person gives none. */
const defaultName = (deviceType: string) => (deviceType === 'multiDevice' ? 'Passkey' : 'Security key');

/** register/options: the options for `navigator.credentials.create`, its challenge kept for this account. */
export const passkeyRegisterOptions = defineOperation({
  name: 'account.passkey.register_options',
  input: PasskeyOptionsBody,
  output: PasskeyOptions,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  emits: [],
  async run(ctx) {
    const { user } = ctx.caller;
    const existing = await passkeysOf(ctx.tx, user.id);
    if (existing.length >= PASSKEYS_PER_ACCOUNT) throw new PassportError('passkeyLimitReached');
    const handle = await userHandleOf(ctx.tx, user.id, ctx.now());
    // What the browser shows in its passkey list: how the person signs in here, else their name.
    const name = user.username ?? user.email ?? user.mobile ?? user.screen_name;
    const options = await registrationOptions(
      ctx.config.passkeys,
      { handle, name, displayName: user.screen_name },
      existing,
    );
    ctx.oneTime.put(registrationChallengeKey(options.challenge), user.id, CEREMONY_TTL_MS);
    return {
      options: options as unknown as Static<typeof CeremonyOptions>,
      expires_in: CEREMONY_TTL_MS / 1000,
    };
  },
});

/** register/verify: the browser's new credential, verified against the kept challenge, stored. */
export const passkeyRegister = defineOperation({
  name: 'account.passkey.register',
  input: PasskeyRegisterBody,
  output: Passkey,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  takes: (input) => [registrationChallengeKey(answeredChallenge(input.credential))],
  emits: ['passkey.added'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    const response = parseRegistration(input.credential);
    const client = clientDataOf(response);
    // Single use: taken (before the transaction) whatever is judged next, so a refused answer cannot be
    // tried again.
    const owner = ctx.oneTime.take(registrationChallengeKey(client.challenge));
    if (owner !== user.id) throw new PassportError('passkeyChallengeInvalid');
    assertOrigin(ctx.config.passkeys, client.origin);
    const info = await verifyRegistration(ctx.config.passkeys, response, client.challenge);
    // Concurrent registrations count one after the other (the account's row, on PostgreSQL).
    await lockAccount(ctx.tx, user.id);
    if ((await passkeysOf(ctx.tx, user.id)).length >= PASSKEYS_PER_ACCOUNT)
      throw new PassportError('passkeyLimitReached');
    const hadFactor = await hasSecondFactor(ctx.tx, user.id);
    const now = ctx.now();
    const transports = response.response.transports ?? info.credential.transports ?? [];
    const row = {
      id: ctx.newId(),
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(transports),
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      aaguid: info.aaguid,
      name: input.name?.trim() || defaultName(info.credentialDeviceType),
      created_at: now,
      last_used_at: null,
    };
    await insertPasskey(ctx.tx, row);
    await recordFirstFactor(ctx.tx, ctx.caller.sessionId, hadFactor, now);
    const view = passkeyView(row);
    emitForAccount(ctx, 'passkey.added', {
      passkeyId: view.id,
      name: view.name,
      deviceType: view.device_type,
      backedUp: view.backed_up,
    });
    return view;
  },
});

/** What a sign-in challenge is kept with: the browser that asked for it (`ctx.request.client`). */
const browserBinding = (ctx: { request: { client?: string | undefined } }) =>
  `browser:${ctx.request.client ?? ''}`;

/** login/options: a challenge for any passkey of this site (discoverable credentials). */
export const passkeyLoginOptions = defineOperation({
  name: 'account.passkey.login_options',
  input: PasskeyOptionsBody,
  output: PasskeyOptions,
  caller: caller.anonymous,
  emits: [],
  async run(ctx) {
    const options = await authenticationOptions(ctx.config.passkeys);
    // Bound to the browser that asked: an answer relayed to another browser (a phishing proxy that
    // asked for its own victim's assertion, a leaked answer) signs nobody in there.
    ctx.oneTime.put(authenticationChallengeKey(options.challenge), browserBinding(ctx), CEREMONY_TTL_MS);
    return {
      options: options as unknown as Static<typeof CeremonyOptions>,
      expires_in: CEREMONY_TTL_MS / 1000,
    };
  },
});

/**
 * login/verify: proves whose passkey answered and keeps its counter and backup flag; the route then
 * signs the person in through completeSignIn (method `passkey`).
 */
export const passkeyLogin = defineOperation({
  name: 'account.passkey.login',
  input: PasskeyLoginBody,
  output: PasskeyProven,
  caller: caller.anonymous,
  takes: (input) => [authenticationChallengeKey(answeredChallenge(input.credential))],
  emits: [],
  async run(ctx, input) {
    const response = parseAuthentication(input.credential);
    const client = clientDataOf(response);
    if (ctx.oneTime.take(authenticationChallengeKey(client.challenge)) !== browserBinding(ctx))
      throw new PassportError('passkeyChallengeInvalid');
    const passkey = await proveAssertion(ctx.tx, ctx.config.passkeys, response, client, { now: ctx.now() });
    return { user_id: passkey.user_id };
  },
});

/** list: the account's passkeys, oldest first. */
export const listPasskeys = defineOperation({
  name: 'account.passkey.list',
  input: PasskeyOptionsBody,
  output: PasskeyList,
  caller: caller.person,
  emits: [],
  async run(ctx) {
    return { passkeys: (await passkeysOf(ctx.tx, ctx.caller.user.id)).map(passkeyView) };
  },
});

/** rename: a new name for one of the account's passkeys. */
export const renamePasskey = defineOperation({
  name: 'account.passkey.rename',
  input: PasskeyRenameBody,
  output: Passkey,
  caller: caller.person,
  emits: ['passkey.renamed'],
  async run(ctx, input) {
    const row = await ownPasskey(ctx.tx, ctx.caller.user.id, input.id);
    const name = input.name.trim();
    if (!name) throw new PassportError('invalidParam', { field: 'name' });
    if (name === row.name) return passkeyView(row);
    await ctx.tx.updateTable('passkeys').set({ name }).where('id', '=', row.id).execute();
    emitForAccount(ctx, 'passkey.renamed', { passkeyId: row.id, name, previous: row.name });
    return passkeyView({ ...row, name });
  },
});

/** remove: takes a passkey away (a way in: needs a recent verification, and never the last way in). */
export const removePasskey = defineOperation({
  name: 'account.passkey.remove',
  input: PasskeyRemoveBody,
  output: PasskeyRemoved,
  caller: caller.person,
  stepUp: STEP_UP_SECONDS,
  emits: ['passkey.removed'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    await lockAccount(ctx.tx, user.id);
    const row = await ownPasskey(ctx.tx, user.id, input.id);
    if (!(await keepsAWayInWithout(ctx.tx, user.id, row.id))) throw new PassportError('passkeyLastWayIn');
    await ctx.tx.deleteFrom('passkeys').where('id', '=', row.id).execute();
    emitForAccount(ctx, 'passkey.removed', { passkeyId: row.id, name: row.name });
    return { removed: row.id };
  },
});
