import { ConfigError } from '../../config';

/** How user tokens (`/GetUserToken`) are made. Every field has an embedded default. */
export interface UserTokenSettings {
  /**
   * USER_TOKEN_AUDIENCES: comma-separated `aud` values a token may be minted for; the first is the
   * default, a caller may ask for another one on the list. Default: PUBLIC_ORIGIN.
   */
  audiences: string[];
  /** USER_TOKEN_TTL_SECONDS, default 300 (5 minutes), at most 3600: a token lives this long. */
  ttlSeconds: number;
  /** SIGNING_KEY_ROTATION_HOURS, default 24: a new signing key takes over this often. */
  rotationSeconds: number;
}

declare module '../../config' {
  interface Config {
    /** User-token settings; unset fields take their defaults (see UserTokenSettings). */
    userToken?: Partial<UserTokenSettings>;
  }
}

export const USER_TOKEN_DEFAULTS = { ttlSeconds: 300, rotationSeconds: 24 * 3600 } as const;

const whole = (variable: string, raw: string, min: number, max: number): number => {
  if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(variable, `"${raw}" is not a whole number from ${min} to ${max}`);
  }
  return Number(raw);
};

/**
 * Reads USER_TOKEN_AUDIENCES, USER_TOKEN_TTL_SECONDS and SIGNING_KEY_ROTATION_HOURS; throws a
 * ConfigError that names the variable. Unset variables are left out (their defaults apply).
 */
export function userTokenSettingsFromEnv(
  env: Record<string, string | undefined>,
): Partial<UserTokenSettings> {
  const out: Partial<UserTokenSettings> = {};
  const audiences = env.USER_TOKEN_AUDIENCES;
  if (audiences) {
    const list = audiences
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length === 0 || list.some((a) => a.length > 200 || /\s/.test(a))) {
      throw new ConfigError(
        'USER_TOKEN_AUDIENCES',
        `"${audiences}" is not a comma-separated list of audiences`,
      );
    }
    out.audiences = list;
  }
  if (env.USER_TOKEN_TTL_SECONDS)
    out.ttlSeconds = whole('USER_TOKEN_TTL_SECONDS', env.USER_TOKEN_TTL_SECONDS, 30, 3600);
  if (env.SIGNING_KEY_ROTATION_HOURS)
    out.rotationSeconds = whole('SIGNING_KEY_ROTATION_HOURS', env.SIGNING_KEY_ROTATION_HOURS, 1, 8760) * 3600;
  return out;
}

/** The settings in force: the defaults, under the environment's, under the config's. */
export function resolveUserTokenSettings(
  publicOrigin: string,
  ...layers: Partial<UserTokenSettings>[]
): UserTokenSettings {
  const merged: UserTokenSettings = { audiences: [publicOrigin], ...USER_TOKEN_DEFAULTS };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if (merged.audiences.length === 0) merged.audiences = [publicOrigin];
  return merged;
}
