import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { ErrorCode, passkeyPaths, paths } from '../src/protocol';
import { type AuthenticatorOptions, SoftwareAuthenticator } from './support/authenticator';
import { isSignedIn, signInBySms } from './support/flows';
import { type Answer, type Browser, startServer, type TestServer } from './support/server';

/**
 * Passkeys end to end over the routes (docs/factors.md), with a software authenticator making real
 * P-256 keys, `none` and `packed` attestations and signed assertions: register from a signed-in
 * session, sign in without an identifier in another browser, and every refusal a relying party owes —
 * a replayed or foreign challenge, a wrong origin or relying party, a counter that went back.
 */

const ORIGIN = 'http://localhost:3000';
const WINDOW_MS = 10 * 60_000;
let skew = 0;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { now: () => Date.now() + skew });
});
afterAll(() => server?.close());

const codeOf = (answer: Answer) => answer.body.data?.error_code as number | undefined;

function expectRefused(answer: Answer, code: number, status = 400) {
  expect({ status: answer.status, code: codeOf(answer) }).toEqual({ status, code });
  expect(answer.body.message).toBe('error');
}

async function registerOptions(browser: Browser) {
  const answer = await browser.post(passkeyPaths.registerOptions);
  expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
  return answer.body.data.options;
}

async function loginOptions(browser: Browser) {
  const answer = await browser.post(passkeyPaths.loginOptions);
  expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
  return answer.body.data.options;
}

/** A person signed in by SMS with a passkey on `authenticator`. */
async function personWithPasskey(options: Partial<AuthenticatorOptions> = {}, name = 'Laptop') {
  const browser = server.browser();
  const { userId, mobile } = await signInBySms(server, browser);
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, ...options });
  const { json } = authenticator.create(await registerOptions(browser));
  const added = await browser.post(passkeyPaths.registerVerify, { credential: json, name });
  expect(added.body.message, JSON.stringify(added.body)).toBe('success');
  return { browser, userId, mobile, authenticator, passkey: added.body.data };
}

const eventsOf = (userId: string, type: string) =>
  server.app.db
    .selectFrom('events')
    .select('data')
    .where('stream', '=', `user:${userId}`)
    .where('type', '=', type)
    .orderBy('position')
    .execute()
    .then((rows) => rows.map((row) => JSON.parse(row.data)));

describe('registering a passkey', () => {
  it('stores a none-attested passkey with its name and device type; the list shows it; the event names it', async () => {
    const { browser, userId, passkey } = await personWithPasskey();
    expect(passkey).toMatchObject({
      name: 'Laptop',
      device_type: 'singleDevice',
      backed_up: false,
      transports: ['internal'],
      last_used_at: null,
    });
    const list = await browser.get(passkeyPaths.list);
    expect(list.body.data.passkeys).toEqual([passkey]);
    expect(await eventsOf(userId, 'passkey.added')).toEqual([
      { passkeyId: passkey.id, name: 'Laptop', deviceType: 'singleDevice', backedUp: false },
    ]);
    // The user handle is random and the same for the account's next passkey; no personal data in it.
    const handles = await server.app.db
      .selectFrom('passkey_user_handles')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(handles).toHaveLength(1);
    expect(Buffer.from(handles[0]!.handle, 'base64url')).toHaveLength(32);
    const second = await registerOptions(browser);
    expect(second.user.id).toBe(handles[0]!.handle);
    expect(second.user.id).not.toContain(userId);
    // The passkey already there is excluded, so the same authenticator is not registered twice.
    expect(second.excludeCredentials.map((c: { id: string }) => c.id)).toHaveLength(1);
    expect(second.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
  });

  it('accepts a packed self-attestation, and a synced passkey is multiDevice and backed up', async () => {
    const { passkey } = await personWithPasskey({ attestation: 'packed', synced: true }, 'Phone');
    expect(passkey).toMatchObject({ name: 'Phone', device_type: 'multiDevice', backed_up: true });
  });

  it('refuses a packed attestation whose signature does not verify', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, attestation: 'packed' });
    const { json } = authenticator.create(await registerOptions(browser));
    const forged = JSON.parse(json);
    // Another challenge in the client data than the one signed: the hash the signature covers changes.
    const clientData = JSON.parse(Buffer.from(forged.response.clientDataJSON, 'base64url').toString());
    forged.response.clientDataJSON = Buffer.from(
      JSON.stringify({ ...clientData, crossOrigin: true }),
    ).toString('base64url');
    expectRefused(
      await browser.post(passkeyPaths.registerVerify, { credential: JSON.stringify(forged) }),
      ErrorCode.passkeyVerificationFailed,
    );
  });

  it('needs a fresh verification: past the step-up window, STEP_UP_REQUIRED and nothing is kept', async () => {
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const options = await registerOptions(browser);
    skew += WINDOW_MS + 60_000;
    const { json } = authenticator.create(options);
    const late = await browser.post(passkeyPaths.registerVerify, { credential: json });
    expect(codeOf(late)).toBe(ErrorCode.stepUpRequired);
    expect((await browser.post(passkeyPaths.registerOptions)).body.data.error_code).toBe(
      ErrorCode.stepUpRequired,
    );
    const rows = await server.app.db
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses a challenge that was not issued to this account, or is used twice', async () => {
    const ada = server.browser();
    await signInBySms(server, ada);
    const eve = server.browser();
    await signInBySms(server, eve);
    const options = await registerOptions(ada);
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    // Eve answers Ada's challenge from her own session.
    expectRefused(
      await eve.post(passkeyPaths.registerVerify, { credential: authenticator.create(options).json }),
      ErrorCode.passkeyChallengeInvalid,
    );
    // Eve's attempt used it up: Ada's own answer to it is refused too (single use).
    expectRefused(
      await ada.post(passkeyPaths.registerVerify, { credential: authenticator.create(options).json }),
      ErrorCode.passkeyChallengeInvalid,
    );
  });

  it('refuses an answer from another origin or for another relying party', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    expectRefused(
      await browser.post(passkeyPaths.registerVerify, {
        credential: authenticator.create(await registerOptions(browser), { origin: 'https://evil.example' })
          .json,
      }),
      ErrorCode.passkeyOriginMismatch,
    );
    expectRefused(
      await browser.post(passkeyPaths.registerVerify, {
        credential: authenticator.create(await registerOptions(browser), { rpId: 'evil.example' }).json,
      }),
      ErrorCode.passkeyRpMismatch,
    );
  });

  it('answers a malformed credential with a 400, never a 500', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    for (const credential of [
      '{x',
      '{"id":1}',
      JSON.stringify({ id: 'a', rawId: 'a', type: 'public-key', response: {} }),
    ])
      expectRefused(
        await browser.post(passkeyPaths.registerVerify, { credential }),
        ErrorCode.passkeyVerificationFailed,
      );
    expect((await browser.post(passkeyPaths.loginVerify, { credential: '[]' })).status).toBe(400);
  });
});

describe('signing in with a passkey', () => {
  it('signs in without an identifier through completeSignIn, method passkey; the passkey records its use', async () => {
    const { userId, authenticator, passkey } = await personWithPasskey();
    const elsewhere = server.browser();
    expect(await isSignedIn(elsewhere)).toBe(false);
    const options = await loginOptions(elsewhere);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    const signedIn = await elsewhere.post(passkeyPaths.loginVerify, {
      credential: authenticator.get(options),
    });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    expect(signedIn.body.data.user_id).toBe(userId);
    expect(await isSignedIn(elsewhere)).toBe(true);
    expect((await eventsOf(userId, 'account.signed_in')).at(-1)).toMatchObject({ method: 'passkey' });
    const [row] = await server.app.db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', passkey.id)
      .execute();
    expect(Number(row!.counter)).toBe(1);
    expect(row!.last_used_at).not.toBeNull();
  });

  it('refuses a replayed answer: the challenge is single use', async () => {
    const { authenticator } = await personWithPasskey();
    const first = server.browser();
    const credential = authenticator.get(await loginOptions(first));
    expect((await first.post(passkeyPaths.loginVerify, { credential })).body.message).toBe('success');
    const thief = server.browser();
    expectRefused(
      await thief.post(passkeyPaths.loginVerify, { credential }),
      ErrorCode.passkeyChallengeInvalid,
    );
    expect(await isSignedIn(thief)).toBe(false);
  });

  it('refuses an answer sent from another browser than the one that asked: the challenge is bound to it', async () => {
    const { authenticator } = await personWithPasskey();
    const asker = server.browser();
    const credential = authenticator.get(await loginOptions(asker));
    const relay = server.browser();
    expectRefused(
      await relay.post(passkeyPaths.loginVerify, { credential }),
      ErrorCode.passkeyChallengeInvalid,
    );
    expect(await isSignedIn(relay)).toBe(false);
    // The asker's own answers still sign it in.
    const own = await asker.post(passkeyPaths.loginVerify, {
      credential: authenticator.get(await loginOptions(asker)),
    });
    expect(own.body.message, JSON.stringify(own.body)).toBe('success');
  });

  it('the same answer sent ten times at once signs in once: the challenge is taken by one', async () => {
    const { userId, authenticator } = await personWithPasskey();
    const first = server.browser();
    const credential = authenticator.get(await loginOptions(first));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => first.post(passkeyPaths.loginVerify, { credential })),
    );
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(1);
    for (const answer of answers.filter((a) => a.body.message !== 'success'))
      expectRefused(answer, ErrorCode.passkeyChallengeInvalid);
    const signIns = (await eventsOf(userId, 'account.signed_in')).filter((e) => e.method === 'passkey');
    expect(signIns).toHaveLength(1);
  });

  it('caps the sign-in challenges one address may ask for', async () => {
    const browser = server.browser();
    for (let i = 0; i < 100; i++)
      expect((await browser.post(passkeyPaths.loginOptions)).body.message).toBe('success');
    const refused = await browser.post(passkeyPaths.loginOptions);
    expect({ status: refused.status, code: codeOf(refused) }).toEqual({
      status: 429,
      code: ErrorCode.rateLimited,
    });
  });

  it('refuses a challenge the server never issued', async () => {
    const { authenticator } = await personWithPasskey();
    const browser = server.browser();
    const made = authenticator.get({
      challenge: Buffer.from('not issued by the server').toString('base64url'),
    });
    expectRefused(
      await browser.post(passkeyPaths.loginVerify, { credential: made }),
      ErrorCode.passkeyChallengeInvalid,
    );
  });

  it('refuses a wrong origin and a wrong relying party', async () => {
    const { authenticator } = await personWithPasskey();
    const browser = server.browser();
    expectRefused(
      await browser.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(await loginOptions(browser), { origin: 'http://localhost:4000' }),
      }),
      ErrorCode.passkeyOriginMismatch,
    );
    expectRefused(
      await browser.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(await loginOptions(browser), { rpId: 'example.org' }),
      }),
      ErrorCode.passkeyRpMismatch,
    );
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('refuses what SimpleWebAuthn refuses, now checked by the server: no user verification, another ceremony, a framed page, a mismatched id', async () => {
    const { authenticator } = await personWithPasskey();
    const [credential] = authenticator.credentials;
    /** The authenticator's answer, its client data changed and signed again by the passkey's own key. */
    const resigned = (json: string, change: (clientData: Record<string, unknown>) => void) => {
      const answer = JSON.parse(json);
      const clientData = JSON.parse(Buffer.from(answer.response.clientDataJSON, 'base64url').toString());
      change(clientData);
      const clientDataJSON = Buffer.from(JSON.stringify(clientData));
      const authData = Buffer.from(answer.response.authenticatorData, 'base64url');
      const hash = createHash('sha256').update(clientDataJSON).digest();
      answer.response.clientDataJSON = clientDataJSON.toString('base64url');
      answer.response.signature = sign('sha256', Buffer.concat([authData, hash]), credential!.key).toString(
        'base64url',
      );
      return JSON.stringify(answer);
    };
    const browser = server.browser();
    const refusedWith = async (json: string) =>
      expectRefused(
        await browser.post(passkeyPaths.loginVerify, { credential: json }),
        ErrorCode.passkeyVerificationFailed,
      );
    await refusedWith(
      resigned(authenticator.get(await loginOptions(browser)), (c) => {
        c.type = 'webauthn.create';
      }),
    );
    await refusedWith(
      resigned(authenticator.get(await loginOptions(browser)), (c) => {
        c.crossOrigin = true;
        c.topOrigin = 'https://framing.example';
      }),
    );
    const mismatched = JSON.parse(authenticator.get(await loginOptions(browser)));
    mismatched.rawId = `${mismatched.rawId}A`;
    await refusedWith(JSON.stringify(mismatched));
    // The same authenticator without user verification (presence only): signed, and refused.
    (authenticator.options as { userVerification?: boolean }).userVerification = false;
    await refusedWith(authenticator.get(await loginOptions(browser)));
    expect(await isSignedIn(browser)).toBe(false);
    // The signature, re-made by the key over an unchanged answer, still signs in (the helper is sound).
    (authenticator.options as { userVerification?: boolean }).userVerification = true;
    const fine = resigned(authenticator.get(await loginOptions(browser)), () => {});
    expect((await browser.post(passkeyPaths.loginVerify, { credential: fine })).body.message).toBe('success');
  });

  it('refuses a counter that went back (a cloned authenticator) and keeps the stored counter', async () => {
    const { authenticator, passkey } = await personWithPasskey();
    const browser = server.browser();
    for (let i = 0; i < 3; i++)
      expect(
        (
          await browser.post(passkeyPaths.loginVerify, {
            credential: authenticator.get(await loginOptions(browser)),
          })
        ).body.message,
      ).toBe('success');
    const clone = server.browser();
    for (const counter of [2, 3])
      expectRefused(
        await clone.post(passkeyPaths.loginVerify, {
          credential: authenticator.get(await loginOptions(clone), { counter }),
        }),
        ErrorCode.passkeyCounterRegressed,
      );
    expect(await isSignedIn(clone)).toBe(false);
    const [row] = await server.app.db
      .selectFrom('passkeys')
      .select('counter')
      .where('id', '=', passkey.id)
      .execute();
    expect(Number(row!.counter)).toBe(3);
  });

  it('judges the counter only once the signature verified: a forged answer neither moves nor trips it', async () => {
    const { authenticator, passkey } = await personWithPasskey();
    const browser = server.browser();
    const signedIn = await browser.post(passkeyPaths.loginVerify, {
      credential: authenticator.get(await loginOptions(browser)),
    });
    expect(signedIn.body.message).toBe('success');
    // Signed by another key: with a counter far ahead, and with one that went back.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = (json: string) => {
      const answer = JSON.parse(json);
      const data = Buffer.from(answer.response.authenticatorData, 'base64url');
      const client = createHash('sha256')
        .update(Buffer.from(answer.response.clientDataJSON, 'base64url'))
        .digest();
      answer.response.signature = sign('sha256', Buffer.concat([data, client]), privateKey).toString(
        'base64url',
      );
      return JSON.stringify(answer);
    };
    const thief = server.browser();
    for (const counter of [1_000_000, 1])
      expectRefused(
        await thief.post(passkeyPaths.loginVerify, {
          credential: forged(authenticator.get(await loginOptions(thief), { counter })),
        }),
        ErrorCode.passkeyVerificationFailed,
      );
    const counterOf = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('passkeys')
            .select('counter')
            .where('id', '=', passkey.id)
            .executeTakeFirstOrThrow()
        ).counter,
      );
    expect(await counterOf()).toBe(1);
    // The genuine authenticator's next answer (counter 2) still signs in.
    const again = server.browser();
    const next = await again.post(passkeyPaths.loginVerify, {
      credential: authenticator.get(await loginOptions(again)),
    });
    expect(next.body.message, JSON.stringify(next.body)).toBe('success');
    expect(await counterOf()).toBe(2);
  });

  it('an authenticator that keeps no counter (0 each time) signs in again and again', async () => {
    const { authenticator } = await personWithPasskey({ counterStep: 0, synced: true });
    for (let i = 0; i < 2; i++) {
      const browser = server.browser();
      const answer = await browser.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(await loginOptions(browser)),
      });
      expect(answer.body.message).toBe('success');
    }
  });

  it('refuses a passkey this server does not hold, and a user handle that is not its account’s', async () => {
    const stranger = new SoftwareAuthenticator({ origin: ORIGIN });
    stranger.create({
      challenge: 'x',
      rp: { name: 'x' },
      user: { id: 'aGFuZGxl', name: 'x', displayName: 'x' },
    });
    const browser = server.browser();
    expectRefused(
      await browser.post(passkeyPaths.loginVerify, { credential: stranger.get(await loginOptions(browser)) }),
      ErrorCode.passkeyUnknown,
    );
    const { authenticator } = await personWithPasskey();
    expectRefused(
      await browser.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(await loginOptions(browser), { userHandle: 'b3RoZXI' }),
      }),
      ErrorCode.passkeyVerificationFailed,
    );
  });

  it('a frozen account is refused at sign-in like every sign-in', async () => {
    const { userId, authenticator } = await personWithPasskey();
    await server.app.db.updateTable('users').set({ is_frozen: 1 }).where('id', '=', userId).execute();
    const browser = server.browser();
    const answer = await browser.post(passkeyPaths.loginVerify, {
      credential: authenticator.get(await loginOptions(browser)),
    });
    expect(codeOf(answer)).toBe(ErrorCode.accountFrozen);
    expect(await isSignedIn(browser)).toBe(false);
  });
});

describe('managing passkeys', () => {
  it('renames one (event with the previous name); another account’s passkey is not found', async () => {
    const { browser, userId, passkey } = await personWithPasskey();
    const renamed = await browser.post(passkeyPaths.rename, { id: passkey.id, name: '  Work laptop ' });
    expect(renamed.body.data).toMatchObject({ id: passkey.id, name: 'Work laptop' });
    expect(await eventsOf(userId, 'passkey.renamed')).toEqual([
      { passkeyId: passkey.id, name: 'Work laptop', previous: 'Laptop' },
    ]);
    const other = server.browser();
    await signInBySms(server, other);
    expect(codeOf(await other.post(passkeyPaths.rename, { id: passkey.id, name: 'mine' }))).toBe(
      ErrorCode.passkeyNotFound,
    );
    expect(codeOf(await other.post(passkeyPaths.remove, { id: passkey.id }))).toBe(ErrorCode.passkeyNotFound);
    expect((await browser.post(passkeyPaths.rename, { id: passkey.id, name: '' })).status).toBe(400);
  });

  it('removes one with a fresh verification; the removed passkey no longer signs in', async () => {
    const { browser, userId, authenticator, passkey } = await personWithPasskey();
    const removed = await browser.post(passkeyPaths.remove, { id: passkey.id });
    expect(removed.body.data).toEqual({ removed: passkey.id });
    expect(await eventsOf(userId, 'passkey.removed')).toEqual([{ passkeyId: passkey.id, name: 'Laptop' }]);
    expect((await browser.get(passkeyPaths.list)).body.data.passkeys).toEqual([]);
    const elsewhere = server.browser();
    expectRefused(
      await elsewhere.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(await loginOptions(elsewhere)),
      }),
      ErrorCode.passkeyUnknown,
    );
  });

  it('removing needs a fresh verification', async () => {
    const { browser, passkey } = await personWithPasskey();
    skew += WINDOW_MS + 60_000;
    expect(codeOf(await browser.post(passkeyPaths.remove, { id: passkey.id }))).toBe(
      ErrorCode.stepUpRequired,
    );
    expect((await browser.get(passkeyPaths.list)).body.data.passkeys).toHaveLength(1);
  });

  it('never removes the last way in; with a second passkey, one of them may go', async () => {
    const { browser, userId, authenticator, passkey } = await personWithPasskey();
    // The account's only other way in goes: the passkey is now the only one.
    await server.app.db.updateTable('users').set({ mobile: null }).where('id', '=', userId).execute();
    expect(codeOf(await browser.post(passkeyPaths.remove, { id: passkey.id }))).toBe(
      ErrorCode.passkeyLastWayIn,
    );
    const second = authenticator.create(await registerOptions(browser));
    expect((await browser.post(passkeyPaths.registerVerify, { credential: second.json })).body.message).toBe(
      'success',
    );
    expect((await browser.post(passkeyPaths.remove, { id: passkey.id })).body.data).toEqual({
      removed: passkey.id,
    });
    const [left] = (await browser.get(passkeyPaths.list)).body.data.passkeys;
    expect(codeOf(await browser.post(passkeyPaths.remove, { id: left.id }))).toBe(ErrorCode.passkeyLastWayIn);
  });

  it('the account’s data export lists them (no key material); cancellation lists them as lost', async () => {
    const { browser, passkey } = await personWithPasskey();
    const exported = await browser.get(paths.profile.getUserData);
    expect(exported.body.data.passkeys).toEqual([
      {
        name: 'Laptop',
        device_type: 'singleDevice',
        backed_up: false,
        created_at: passkey.created_at,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(exported.body.data)).not.toContain(passkey.id);
    const check = await browser.get(paths.web.cancelCheck);
    expect(check.body.data.losses).toContainEqual({ key: 'passkeys', count: 1 });
  });

  it('the list, rename and remove need a session', async () => {
    const browser = server.browser();
    expect(codeOf(await browser.get(passkeyPaths.list))).toBe(ErrorCode.notLoggedIn);
    expect(codeOf(await browser.post(passkeyPaths.registerOptions))).toBe(ErrorCode.notLoggedIn);
  });
});

describe('the relying party across sibling hosts', () => {
  it('defaults the RP id to the cookie domain; origins on it (the sso host among them) are accepted, others left out', () => {
    const config = loadConfig({
      PUBLIC_ORIGIN: 'https://passport.example.com',
      COOKIE_DOMAIN: '.example.com',
      ALLOWED_ORIGINS: 'https://sso.example.com,https://app.example.com,https://partner.example.org',
      SSO_HOST: 'sso.example.com',
      DEV_OUTBOX: 'off',
    });
    expect(config.passkeys).toEqual({
      rpId: 'example.com',
      rpName: 'Portico',
      origins: ['https://passport.example.com', 'https://sso.example.com', 'https://app.example.com'],
    });
    expect(() =>
      loadConfig({
        PUBLIC_ORIGIN: 'https://passport.example.com',
        PASSKEY_RP_ID: 'example.org',
        DEV_OUTBOX: 'off',
      }),
    ).toThrow(/PASSKEY_RP_ID/);
    expect(() =>
      loadConfig({
        PUBLIC_ORIGIN: 'https://passport.example.com',
        PASSKEY_ORIGINS: 'https://passport.example.com,https://evil.example.org',
        DEV_OUTBOX: 'off',
      }),
    ).toThrow(/PASSKEY_ORIGINS/);
  });

  it('a passkey registered on one host signs in on a sibling host of the same RP id', async () => {
    const sibling = await startServer({
      passkeys: {
        rpId: 'example.com',
        rpName: 'Portico',
        origins: ['https://passport.example.com', 'https://sso.example.com'],
      },
    });
    try {
      const browser = sibling.browser();
      await signInBySms(sibling, browser);
      const options = (await browser.post(passkeyPaths.registerOptions)).body.data.options;
      expect(options.rp).toEqual({ id: 'example.com', name: 'Portico' });
      const authenticator = new SoftwareAuthenticator({ origin: 'https://passport.example.com' });
      const { json } = authenticator.create(options);
      expect((await browser.post(passkeyPaths.registerVerify, { credential: json })).body.message).toBe(
        'success',
      );
      const atSso = sibling.browser();
      const login = (await atSso.post(passkeyPaths.loginOptions)).body.data.options;
      expect(login.rpId).toBe('example.com');
      const answer = await atSso.post(passkeyPaths.loginVerify, {
        credential: authenticator.get(login, { origin: 'https://sso.example.com' }),
      });
      expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
      expect((await atSso.get(paths.web.accountInfo)).body.message).toBe('success');
    } finally {
      await sibling.close();
    }
  });
});
