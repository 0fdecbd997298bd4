import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/app';
import { ConfigError } from '../src/config';
import type { SigningKeysDatabase } from '../src/domain/tokens/key-ring';
import { createSealer } from '../src/domain/tokens/seal';
import { userTokenSettingsFromEnv } from '../src/domain/tokens/settings';
import { paths } from '../src/protocol';
import { JWKS_PATH } from '../src/routes/app/jwks';
import { codeFor, freshMobile, startServer, type TestServer } from './support/server';

const HOUR = 3_600_000;
const ISSUER = 'http://localhost:3000';
const AUDIENCE = 'https://api.example.com';

let server: TestServer;
let clock = Date.now();
let base = '';

beforeAll(async () => {
  server = await startServer(
    { userToken: { audiences: [AUDIENCE], ttlSeconds: 300, rotationSeconds: 3600 } },
    { now: () => clock },
  );
  // A real port on loopback, so the remote JWKS is fetched the way a product back end fetches it.
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server?.close());

const keysTable = () => server.app.db as unknown as Kysely<SigningKeysDatabase>;

async function signedIn() {
  const browser = server.browser();
  const mobile = freshMobile();
  clock += 61_000;
  await browser.post(paths.web.sendCode, { mobile, type: 24 });
  const login = await browser.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
  return { browser, userId: login.body.data.user_id as string };
}

async function tokenFor(browser: Awaited<ReturnType<typeof signedIn>>['browser']): Promise<string> {
  const answer = await browser.post(paths.app.GetUserToken);
  expect(answer.body.message).toBe('success');
  return answer.body.data.token;
}

async function servedJwks(): Promise<JSONWebKeySet> {
  const answer = await server.app.inject({ method: 'GET', url: JWKS_PATH });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

const at = (ms: number) => ({ issuer: ISSUER, audience: AUDIENCE, currentDate: new Date(ms) });

describe('user tokens', () => {
  it('verify with a stock remote JWKS fetched over HTTP, with the claims a back end checks', async () => {
    const { browser, userId } = await signedIn();
    const token = await tokenFor(browser);
    const jwks = createRemoteJWKSet(new URL(`${base}${JWKS_PATH}`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, at(clock));
    const issuedAt = Math.floor(clock / 1000);
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
    expect(payload).toEqual({
      iss: ISSUER,
      sub: userId,
      aud: AUDIENCE,
      iat: issuedAt,
      exp: issuedAt + 300,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('verify with plain node:crypto too: nothing jose-specific in the format', async () => {
    const { browser } = await signedIn();
    const token = await tokenFor(browser);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const { kid } = decodeProtectedHeader(token);
    const jwk = (await servedJwks()).keys.find((k) => k.kid === kid);
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('carry a fresh jti each time', async () => {
    const { browser } = await signedIn();
    const jwks = createLocalJWKSet(await servedJwks());
    const first = await jwtVerify(await tokenFor(browser), jwks, at(clock));
    const second = await jwtVerify(await tokenFor(browser), jwks, at(clock));
    expect(first.payload.jti).not.toBe(second.payload.jti);
  });

  it('expire after five minutes by the server clock', async () => {
    const { browser } = await signedIn();
    const token = await tokenFor(browser);
    const jwks = createLocalJWKSet(await servedJwks());
    await expect(jwtVerify(token, jwks, at(clock + 299_000))).resolves.toBeDefined();
    await expect(jwtVerify(token, jwks, at(clock + 301_000))).rejects.toMatchObject({
      code: 'ERR_JWT_EXPIRED',
    });
  });

  it('fail verification when tampered with: a changed subject, a changed signature', async () => {
    const { browser } = await signedIn();
    const token = await tokenFor(browser);
    const jwks = createLocalJWKSet(await servedJwks());
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    await expect(jwtVerify(`${header}.${forged}.${signature}`, jwks, at(clock))).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(jwtVerify(`${header}.${payload}.${flipped}`, jwks, at(clock))).rejects.toBeDefined();
  });

  it('are refused by a stock verifier when re-labelled alg none', async () => {
    const { browser, userId } = await signedIn();
    const token = await tokenFor(browser);
    const { kid } = decodeProtectedHeader(token);
    const jwks = createLocalJWKSet(await servedJwks());
    const unsecured = new UnsecuredJWT({})
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(clock / 1000))
      .setExpirationTime(Math.floor(clock / 1000) + 300)
      .encode();
    await expect(jwtVerify(unsecured, jwks, at(clock))).rejects.toBeDefined();
    const withKid = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${token.split('.')[1]}.`;
    await expect(jwtVerify(withKid, jwks, at(clock))).rejects.toBeDefined();
  });
});

describe('the JWKS', () => {
  it('serves public keys only: no d or any other private member', async () => {
    const { browser } = await signedIn();
    await tokenFor(browser);
    const answer = await server.app.inject({ method: 'GET', url: JWKS_PATH });
    const { keys } = answer.json() as JSONWebKeySet;
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
    expect(answer.body).not.toMatch(/"(d|p|q|dp|dq|qi|k)"/);
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
  });

  it('publishes the next key a whole rotation before it signs anything', async () => {
    const { browser } = await signedIn();
    const { kid } = decodeProtectedHeader(await tokenFor(browser));
    const rows = await keysTable().selectFrom('signing_keys').selectAll().orderBy('generation').execute();
    const active = rows.find((row) => row.kid === kid);
    const next = rows.find((row) => row.generation === (active?.generation ?? 0) + 1);
    expect(next?.activates_at).toBeGreaterThan(clock);
    expect((await servedJwks()).keys.map((k) => k.kid)).toContain(next?.kid);
  });
});

describe('key rotation', () => {
  it('moves to a new key on schedule; tokens of the retired key verify until they expire, then it leaves the JWKS', async () => {
    const { browser } = await signedIn();
    const oldKid = decodeProtectedHeader(await tokenFor(browser)).kid ?? '';
    const rows = await keysTable().selectFrom('signing_keys').selectAll().orderBy('generation').execute();
    const oldRow = rows.find((row) => row.kid === oldKid);
    const next = rows.find((row) => row.generation === (oldRow?.generation ?? 0) + 1);
    if (!oldRow || !next) throw new Error('expected an active and a next key');

    clock = next.activates_at - 60_000;
    const lastOfOld = await tokenFor(browser);
    expect(decodeProtectedHeader(lastOfOld).kid).toBe(oldKid);

    clock = next.activates_at + 60_000;
    const firstOfNew = await tokenFor(browser);
    expect(decodeProtectedHeader(firstOfNew).kid).toBe(next.kid);
    const jwks = createLocalJWKSet(await servedJwks());
    await expect(jwtVerify(lastOfOld, jwks, at(clock))).resolves.toBeDefined();
    await expect(jwtVerify(firstOfNew, jwks, at(clock))).resolves.toBeDefined();

    // A leeway after retiring, the private half is erased; the public half stays for the tokens' lifetime.
    clock = next.activates_at + 6 * 60_000;
    expect((await servedJwks()).keys.map((k) => k.kid)).toContain(oldKid);
    const retired = await keysTable()
      .selectFrom('signing_keys')
      .selectAll()
      .where('kid', '=', oldKid)
      .executeTakeFirst();
    expect(retired?.private_jwk_sealed).toBeNull();

    clock = next.activates_at + 11 * 60_000;
    expect((await servedJwks()).keys.map((k) => k.kid)).not.toContain(oldKid);
    expect(
      await keysTable().selectFrom('signing_keys').select('kid').where('kid', '=', oldKid).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('catches up after a long stop: the first token after days signs with a key made now', async () => {
    const { browser } = await signedIn();
    clock += 72 * HOUR;
    const token = await tokenFor(browser);
    const { kid } = decodeProtectedHeader(token);
    const row = await keysTable()
      .selectFrom('signing_keys')
      .selectAll()
      .where('kid', '=', kid ?? '')
      .executeTakeFirst();
    expect(row?.activates_at).toBeGreaterThan(clock - HOUR);
    await expect(jwtVerify(token, createLocalJWKSet(await servedJwks()), at(clock))).resolves.toBeDefined();
  });
});

describe('private keys at rest', () => {
  it('are sealed with the server secret, not stored as plaintext JWKs', async () => {
    const { browser } = await signedIn();
    await tokenFor(browser);
    const rows = await keysTable().selectFrom('signing_keys').selectAll().execute();
    const sealed = rows.filter((row) => row.private_jwk_sealed !== null);
    expect(sealed.length).toBeGreaterThan(0);
    const sealer = createSealer(server.app.secret);
    for (const row of sealed) {
      const text = row.private_jwk_sealed ?? '';
      expect(text).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const jwk = JSON.parse(sealer.open(text, row.kid));
      expect(jwk.d).toMatch(/^[\w-]{43}$/);
      expect(text).not.toContain(jwk.d);
      expect(JSON.stringify(row)).not.toContain(jwk.d);
      expect(() =>
        createSealer(Buffer.from('another secret entirely, 32+ chars')).open(text, row.kid),
      ).toThrow();
      expect(() => sealer.open(text, 'another-kid')).toThrow();
    }
  });
});

describe('several instances on one database', () => {
  it('agree on one key per generation even when they all start signing at once', async () => {
    const first = await startServer({ userToken: { audiences: [AUDIENCE] } }, { now: () => clock });
    const second = await buildServer(first.config, { now: () => clock });
    try {
      const actives = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? second : first.app).userTokens.keyRing.active()),
      );
      expect(new Set(actives.map((a) => a.kid)).size).toBe(1);
      const rows = await (first.app.db as unknown as Kysely<SigningKeysDatabase>)
        .selectFrom('signing_keys')
        .select(['generation'])
        .execute();
      expect(rows.map((r) => r.generation).sort()).toEqual([1, 2]);
      const one = await first.app.inject({ method: 'GET', url: JWKS_PATH });
      const two = await second.inject({ method: 'GET', url: JWKS_PATH });
      expect(one.json()).toEqual(two.json());
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('a changed server secret', () => {
  it('refuses the start with the reason, since servers sharing a database must share SECRET', async () => {
    const first = await startServer({ userToken: { audiences: [AUDIENCE] } }, { now: () => clock });
    const before = await first.app.userTokens.keyRing.active();
    try {
      await expect(
        buildServer(
          { ...first.config, secret: 'a different secret, at least 32 characters' },
          { now: () => clock },
        ),
      ).rejects.toThrow(/sealed with another SECRET.*REPLACE_SIGNING_KEYS=on/);
      const rows = await (first.app.db as unknown as Kysely<SigningKeysDatabase>)
        .selectFrom('signing_keys')
        .select(['kid'])
        .execute();
      expect(rows).toHaveLength(2); // the active key and its successor: nothing churned
      expect((await first.app.userTokens.keyRing.active()).kid).toBe(before.kid);
    } finally {
      await first.close();
    }
  });

  it('with REPLACE_SIGNING_KEYS=on makes a new key take over at once, the old public key still published', async () => {
    const first = await startServer({ userToken: { audiences: [AUDIENCE] } }, { now: () => clock });
    const before = await first.app.userTokens.keyRing.active();
    const second = await buildServer(
      { ...first.config, secret: 'a different secret, at least 32 characters', replaceSigningKeys: true },
      { now: () => clock },
    );
    try {
      const after = await second.userTokens.keyRing.active();
      expect(after.kid).not.toBe(before.kid);
      const { keys } = (await second.inject({ method: 'GET', url: JWKS_PATH })).json() as JSONWebKeySet;
      expect(keys.map((k) => k.kid)).toEqual(expect.arrayContaining([before.kid, after.kid]));
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('settings from the environment', () => {
  it('read audiences, lifetime and rotation, and name the variable that is wrong', () => {
    expect(
      userTokenSettingsFromEnv({
        USER_TOKEN_AUDIENCES: 'https://a.example.com, https://b.example.com',
        USER_TOKEN_TTL_SECONDS: '120',
        SIGNING_KEY_ROTATION_HOURS: '12',
      }),
    ).toEqual({
      audiences: ['https://a.example.com', 'https://b.example.com'],
      ttlSeconds: 120,
      rotationSeconds: 43_200,
    });
    expect(userTokenSettingsFromEnv({})).toEqual({});
    expect(() => userTokenSettingsFromEnv({ USER_TOKEN_TTL_SECONDS: '86400' })).toThrow(ConfigError);
    expect(() => userTokenSettingsFromEnv({ USER_TOKEN_TTL_SECONDS: '86400' })).toThrow(
      /USER_TOKEN_TTL_SECONDS/,
    );
    expect(() => userTokenSettingsFromEnv({ SIGNING_KEY_ROTATION_HOURS: '0' })).toThrow(
      /SIGNING_KEY_ROTATION_HOURS/,
    );
    expect(() => userTokenSettingsFromEnv({ USER_TOKEN_AUDIENCES: ' , ' })).toThrow(/USER_TOKEN_AUDIENCES/);
  });
});
