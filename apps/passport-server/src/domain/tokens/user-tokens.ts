import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { User } from '../../db/schema';
import { KeyRing, type PublicJwk, SIGNING_ALG, type SigningKeysDatabase } from './key-ring';
import { createSealer } from './seal';
import { resolveUserTokenSettings, type UserTokenSettings, userTokenSettingsFromEnv } from './settings';

export interface IssuedToken {
  token: string;
  /** Seconds from now. */
  expiresIn: number;
  /** ms since the epoch, like every other time the server answers. */
  expiresAt: number;
}

export interface UserTokens {
  readonly settings: UserTokenSettings;
  /** A short-lived JWT for a user: iss PUBLIC_ORIGIN, sub the user's public id, aud, iat, exp, jti. */
  issue(user: User, audience: string, claims?: Record<string, unknown>): Promise<IssuedToken>;
  /** The JSON Web Key Set product back ends verify with. */
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /** The key ring (tests and operators). */
  readonly keyRing: KeyRing;
}

/**
 * User tokens for product back ends: ES256 JWTs signed with a key that rotates (see KeyRing), whose
 * public halves are served as a JWKS. Settings come from `config.userToken`, else from the
 * environment (USER_TOKEN_AUDIENCES, USER_TOKEN_TTL_SECONDS, SIGNING_KEY_ROTATION_HOURS).
 */
export function createUserTokens(app: FastifyInstance): UserTokens {
  const { config, runtime, secret } = app;
  const settings = resolveUserTokenSettings(
    config.publicOrigin,
    config.userToken ?? userTokenSettingsFromEnv(process.env),
  );
  const keyRing = new KeyRing({
    db: app.db as unknown as Kysely<SigningKeysDatabase>,
    sealer: createSealer(secret),
    now: runtime.now,
    rotationMs: settings.rotationSeconds * 1000,
    tokenTtlMs: settings.ttlSeconds * 1000,
    replaceUnreadable: config.replaceSigningKeys,
    onUnreadable: (kid, error) =>
      app.log.error(
        { kid, err: error },
        'the active signing key cannot be opened with this SECRET; REPLACE_SIGNING_KEYS=on: a new key takes over',
      ),
  });

  const userTokens: UserTokens = {
    settings,
    keyRing,
    async issue(user, audience, claims = {}) {
      const { kid, key } = await keyRing.active();
      const issuedAt = Math.floor(runtime.now() / 1000);
      const expires = issuedAt + settings.ttlSeconds;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
        .setIssuer(config.publicOrigin)
        .setSubject(user.id)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expires)
        .setJti(randomUUID())
        .sign(key);
      return { token, expiresIn: settings.ttlSeconds, expiresAt: expires * 1000 };
    },
    async jwks() {
      return { keys: await keyRing.published() };
    },
  };
  return userTokens;
}
