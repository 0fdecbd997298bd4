import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS } from '@portico/app-routes';
import { type CountryCode, getCountries } from 'libphonenumber-js';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { RENDER_NICENESS } from './domain/challenge/render-process';
import { INVITE_TTL_DEFAULT_SECONDS } from './protocol';

/**
 * The server's settings. `loadConfig(process.env)` builds one from environment variables; tests and
 * benchmarks build one with `defineConfig({...})`. Every default is the embedded one-machine setup:
 * an SQLite file under `./data`, the dev outbox, http://localhost:3000.
 */
export interface Config {
  /** PORT, default 3000. */
  port: number;
  /**
   * HOST, default 127.0.0.1 (set 0.0.0.0 in a container). A non-loopback address with a loopback
   * origin exposes development to the network: DEV_OUTBOX must then be set (on or off), and TEST_CLOCK
   * and RISK_THRESHOLDS=relaxed need DEV_NETWORK=on.
   */
  host: string;
  /** DATA_DIR, default ./data: the SQLite file and the generated server secret live here. */
  dataDir: string;
  /** DATABASE_URL: a postgres:// URL switches storage from SQLite to PostgreSQL. */
  databaseUrl: string | undefined;
  /** DATABASE_SCHEMA: the PostgreSQL schema to use (created when missing); default the server's search_path. */
  databaseSchema: string | undefined;
  /**
   * MIGRATION_WAIT_SECONDS, default 600: how long a starting server waits for another server's
   * migrations (the PostgreSQL migrations lock) before it refuses to start, naming the holder.
   */
  migrationWaitSeconds: number;
  /** REDIS_URL: rate-limit counters and one-time state go to Redis instead of the database. */
  redisUrl: string | undefined;
  /** REDIS_PREFIX, default 'portico:': prefix of every Redis key. */
  redisPrefix: string;
  /** SMTP_URL: e-mail through this SMTP server instead of the dev outbox. */
  smtpUrl: string | undefined;
  /** SMTP_FROM, default 'Portico <no-reply@localhost>'. */
  smtpFrom: string;
  /** SMS_WEBHOOK_URL: SMS as a JSON POST to this address instead of the dev outbox. */
  smsWebhookUrl: string | undefined;
  /** SMS_WEBHOOK_TOKEN: sent as `Authorization: Bearer …` to the SMS webhook. */
  smsWebhookToken: string | undefined;
  /**
   * DEV_OUTBOX: 'auto' (default) stores messages in the dev outbox only when neither SMTP_URL nor
   * SMS_WEBHOOK_URL is set; 'on' forces it for unconfigured channels; 'off' never uses it.
   */
  devOutbox: 'auto' | 'on' | 'off';
  /** PUBLIC_ORIGIN, default http://localhost:{PORT}: the origin users see. https turns on Secure cookies. */
  publicOrigin: string;
  /** ALLOWED_ORIGINS: comma-separated extra origins allowed for CORS, CSRF origin checks and redirects. */
  allowedOrigins: string[];
  /** COOKIE_DOMAIN: a parent domain for cookies; unset means host-only cookies (the safer default). */
  cookieDomain: string | undefined;
  /** TRUST_PROXY: 'false' (default), 'true', a hop count, or comma-separated addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** DEFAULT_REGION, default CN: how numbers without a +country prefix are read. */
  defaultRegion: CountryCode;
  /** ALLOWED_REGIONS: comma-separated ISO countries codes may be sent to; unset means all. */
  allowedRegions: CountryCode[] | undefined;
  /** SESSION_IDLE_SECONDS, default 7 days: a session unused this long is dead. */
  sessionIdleSeconds: number;
  /** SESSION_ABSOLUTE_SECONDS, default 30 days: no session lives longer. */
  sessionAbsoluteSeconds: number;
  /** LOG_LEVEL, default info. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** SECRET: the server secret (≥ 32 characters). Unset: generated once and kept in DATA_DIR/secret. */
  secret: string | undefined;
  /**
   * REPLACE_SIGNING_KEYS=on: signing keys sealed with another SECRET are replaced by a new one (after
   * changing SECRET on purpose). Off (the default), such a start is refused with the reason: servers
   * sharing a database must share SECRET.
   */
  replaceSigningKeys: boolean;
  /**
   * CAPTCHA_PROVIDER (turnstile, hcaptcha, geetest; default none) and its keys: a third-party challenge
   * verified through its server-side API, behind our puzzle (CAPTCHA_PROVIDER_MODE=behind, the default:
   * both must pass) or instead of it (`instead`: the provider's answer replaces the picture). The proof of
   * work stays in front of either.
   */
  captchaProvider?: CaptchaProviderConfig | undefined;
  /** APP_NAME, default Portico: shown in messages. */
  appName: string;
  /**
   * CLIENT_APPS: the apps that call this server, by aid (docs/deploying.md, "Your apps"). When set, a
   * request naming another aid is refused with APP_UNKNOWN; the apps' origins join allowedOrigins.
   * Unset: every aid is accepted (development).
   */
  clientApps: ClientApp[] | undefined;
  /**
   * SECOND_VERIFY, default on: a password or e-mail-code sign-in of an account with a mobile, from a
   * device the account has not used before, answers 2046 and needs an SMS code (README, "Second verification").
   */
  secondVerify: boolean;
  /**
   * The built apps the server serves, each at its mount (@portico/app-routes lists them): web at '/'
   * (WEB_DIST, default apps/web/dist beside this package), sso at '/sso/' (SSO_DIST, default
   * apps/sso/dist) and, with SSO_HOST, at that host's root too, and app-webview at '/app/'
   * (APP_WEBVIEW_DIST, default apps/app-webview/dist).
   */
  apps: AppMount[];
  /** SSO_SERVICES: comma-separated origins of the services that may ask /sso/login for a ticket. */
  ssoServices: string[];
  /**
   * DNS_RESOLVER: comma-separated `address[:port]` of the DNS servers a domain's verification record is
   * looked up through (docs/enterprise-sso.md); unset: the system's resolvers.
   */
  dnsResolver?: string[];
  /** Third-party sign-in (docs/third-party-sign-in.md): each provider only when its client is set. */
  oauth: OAuthConfig;
  /**
   * PROFILE_QUOTAS: how often each profile field may change, as comma-separated
   * `namespace.field=times/seconds` (e.g. `profile.name=3/2592000`), over the defaults in
   * src/domain/profile/quotas.ts (name 3 per 30 days). A field without a quota may change freely.
   */
  profileQuotas: Record<string, { times: number; windowSeconds: number }>;
  /** OPERATOR_USER_IDS: comma-separated user ids that may review sensitive pictures. */
  operators: string[];
  /** CANCEL_COOLING_OFF_DAYS, default 15: how long a requested cancellation can be abandoned. */
  cancelCoolingOffDays: number;
  /** INVITE_TTL_SECONDS, default 7 days: how long an invitation's link stays valid. */
  inviteTtlSeconds: number;
  /** CHAT_WEBHOOK_URL: workplace-chat invitations as a JSON POST to this address (else the dev outbox). */
  chatWebhookUrl: string | undefined;
  /** CHAT_WEBHOOK_TOKEN: sent as `Authorization: Bearer …` to the chat webhook. */
  chatWebhookToken: string | undefined;
  /**
   * TEST_CLOCK=on (loopback origins only, never in production): /dev/clock moves the server's clock
   * forward, for end-to-end tests of the cooling-off period. Off by default.
   */
  testClock: boolean;
  /**
   * WAITLIST=on: a new account needs an admission from an operator (docs/monitoring.md, "The
   * waitlist"); existing accounts are unaffected. Off by default.
   */
  waitlist: boolean;
  /** MONITOR_RETENTION_DAYS, default 30: monitoring events older than this are deleted. */
  monitorRetentionDays: number;
  /**
   * CHALLENGE_RENDER_NICENESS, default 19: the CPU priority the puzzles are drawn at
   * (src/domain/challenge/render-process.ts). At 19 a flood of puzzles takes only the CPU sign-ins leave
   * idle; on a machine kept busy by other work (a test run), puzzles then wait for it, so a host that
   * prefers prompt puzzles sets 0.
   */
  renderNiceness: number;
  /** AUDIT_RETENTION_DAYS, default 365: audit log entries older than this are deleted. */
  auditRetentionDays: number;
  /**
   * Webhooks (docs/webhooks.md). WEBHOOK_RETRY_HOURS, default 24: how long a failing delivery is
   * retried before it is given up (and its endpoint disabled if nothing succeeded meanwhile).
   * WEBHOOK_PRIVATE_TARGETS=on (loopback origins only): endpoints may point at loopback, private and
   * link-local addresses, for a receiver on the developer's machine. Off by default.
   * WEBHOOK_DELIVERY_RETENTION_DAYS, default 30: finished deliveries (succeeded or given up) queued
   * longer ago than this are deleted with their attempts.
   */
  webhooks: { retryHours: number; privateTargets: boolean; deliveryRetentionDays: number };
  /** Open authorization: Portico as an OAuth 2.0 / OpenID provider for third-party apps (docs/open-authorization.md). */
  openAuth: OpenAuthConfig;
  /**
   * RISK_THRESHOLDS, default `default`: `relaxed` (loopback origins only) raises the burst and failure
   * counts before a captcha a hundredfold, so a developer sending codes to themself is not asked for a
   * captcha every few sends (src/domain/challenge/limits.ts, relaxedRiskLimits).
   */
  riskThresholds: 'default' | 'relaxed';
  /**
   * POW_DIFFICULTY, default `default`: `test` (a loopback origin and listen address only) makes the
   * challenge's proof of work about a thousand times cheaper, for browser tests
   * (src/domain/challenge/limits.ts, testPowLimits). Refused anywhere else: it prices the challenge for
   * bots at nothing.
   */
  powDifficulty: 'default' | 'test';
  /**
   * Whether the numbers reserved for fiction (src/lib/identifiers.ts, FICTIONAL_RANGES: the UK's
   * 07700 900000–900999) are accepted as mobiles: on a loopback PUBLIC_ORIGIN only (development).
   */
  fictionalNumbers: boolean;
  /** Passkeys (docs/factors.md): the relying party and the origins a ceremony may come from. */
  passkeys: PasskeyConfig;
}

/**
 * The WebAuthn relying party. A passkey is bound to `rpId`: every origin whose host is `rpId` or a
 * subdomain of it may use it, so `example.com` serves `www.example.com`, `sso.example.com` and
 * `app.example.com` alike.
 */
export interface PasskeyConfig {
  /**
   * PASSKEY_RP_ID, default COOKIE_DOMAIN (without its dot) when set, else PUBLIC_ORIGIN's host: a
   * registrable domain that PUBLIC_ORIGIN's host ends with. Changing it later orphans every passkey.
   */
  rpId: string;
  /** The name the browser shows while it asks: APP_NAME. */
  rpName: string;
  /**
   * PASSKEY_ORIGINS: comma-separated origins a ceremony may come from, each on `rpId` or a subdomain
   * of it. Default: PUBLIC_ORIGIN and every ALLOWED_ORIGINS / app origin on `rpId` (the SSO_HOST's
   * among them).
   */
  origins: string[];
}

/** A scope a deployment declares for third-party apps, with what the consent page says about it. */
export interface OpenScope {
  name: string;
  zh: string;
  en: string;
}

export interface OpenAuthConfig {
  /**
   * OPEN_REGISTRATION_TOKEN: the initial access token RFC 7591 dynamic client registration requires
   * (sent as `Authorization: Bearer …`). Unset (the default): no dynamic registration at all.
   */
  registrationToken: string | undefined;
  /**
   * OPEN_SCOPES: scopes besides `user_info` and the standard ones (STANDARD_SCOPES) that apps may ask
   * for, as comma-separated
   * `name=中文说明|English description` (e.g. `video.list=查看视频|See your videos`).
   */
  scopes: OpenScope[];
  /**
   * OPEN_RESOURCE_SERVERS: the client ids of product APIs (resource servers) that may introspect any
   * access token (RFC 7662), to check an agent's token (docs/open-authorization.md, "Agents"). Any
   * other client introspects only its own tokens. Default: none.
   */
  resourceServers?: readonly string[];
  /**
   * The device flow's polling interval in seconds (RFC 8628 §3.2), 5 unless set: no setting of its
   * own; a test server sets a shorter one, which its stock clients then follow.
   */
  devicePollSeconds?: number;
}

/** One app the server serves. */
export interface AppMount {
  name: string;
  /** '/' or a prefix with slashes on both sides: '/sso/'. */
  mount: string;
  /** Its build folder (index.html, routes.json, assets). */
  dist: string;
  /** A host name (no port) whose root serves this app as well. */
  host?: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid setting ${variable}: ${message}`);
  }
}

const Url = (protocols: string) =>
  Type.Optional(Type.String({ pattern: `^(${protocols})://[^\\s]+$`, description: `a ${protocols} URL` }));
const Seconds = Type.Optional(
  Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'a positive whole number of seconds' }),
);

/** The configured third-party sign-in providers (GOOGLE_*, GITHUB_* and WECHAT_*). */
export interface OAuthConfig {
  google?: { clientId: string; clientSecret: string; issuer: string };
  github?: { clientId: string; clientSecret: string; baseUrl: string; apiUrl: string };
  /** WeChat's website sign-in: the website app's AppID and AppSecret at open.weixin.qq.com. */
  wechat?: { appId: string; appSecret: string; baseUrl: string; apiUrl: string };
  /**
   * OAUTH_DEV_ORIGINS: loopback origins github-oauth-twice-redirect may relay a GitHub callback to
   * (`use_local_host`), because a GitHub app has one callback URL.
   */
  devOrigins: string[];
}

/** The environment variables the server reads, as strings, with their shape. */
export const EnvSchema = Type.Object({
  PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', description: 'a port number 0–65535' })),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Url('postgres|postgresql'),
  DATABASE_SCHEMA: Type.Optional(
    Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'a lower-case SQL identifier' }),
  ),
  MIGRATION_WAIT_SECONDS: Seconds,
  REDIS_URL: Url('redis|rediss'),
  REDIS_PREFIX: Type.Optional(Type.String({ maxLength: 64 })),
  SMTP_URL: Url('smtp|smtps'),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3 })),
  SMS_WEBHOOK_URL: Url('http|https'),
  SMS_WEBHOOK_TOKEN: Type.Optional(Type.String()),
  DEV_OUTBOX: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('on'), Type.Literal('off')])),
  PUBLIC_ORIGIN: Url('http|https'),
  ALLOWED_ORIGINS: Type.Optional(Type.String()),
  COOKIE_DOMAIN: Type.Optional(
    Type.String({
      pattern: '^\\.?[a-z0-9-]+(\\.[a-z0-9-]+)+$',
      description: 'a dotted host name such as example.com',
    }),
  ),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  DEFAULT_REGION: Type.Optional(
    Type.String({ pattern: '^[A-Z]{2}$', description: 'an ISO 3166 country code such as CN' }),
  ),
  ALLOWED_REGIONS: Type.Optional(
    Type.String({ pattern: '^[A-Z]{2}(,[A-Z]{2})*$', description: 'comma-separated country codes' }),
  ),
  SESSION_IDLE_SECONDS: Seconds,
  SESSION_ABSOLUTE_SECONDS: Seconds,
  LOG_LEVEL: Type.Optional(
    Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    ),
  ),
  SECRET: Type.Optional(Type.String({ minLength: 32, description: 'at least 32 characters' })),
  REPLACE_SIGNING_KEYS: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
  CAPTCHA_PROVIDER: Type.Optional(
    Type.Union(
      [Type.Literal('none'), Type.Literal('turnstile'), Type.Literal('hcaptcha'), Type.Literal('geetest')],
      {
        description: 'none, turnstile, hcaptcha or geetest',
      },
    ),
  ),
  CAPTCHA_PROVIDER_MODE: Type.Optional(
    Type.Union([Type.Literal('behind'), Type.Literal('instead')], { description: 'behind or instead' }),
  ),
  TURNSTILE_SITE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TURNSTILE_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  TURNSTILE_VERIFY_URL: Url('http|https'),
  TURNSTILE_SCRIPT_URL: Url('http|https'),
  HCAPTCHA_SITE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  HCAPTCHA_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  HCAPTCHA_VERIFY_URL: Url('http|https'),
  HCAPTCHA_SCRIPT_URL: Url('http|https'),
  GEETEST_ID: Type.Optional(Type.String({ minLength: 1 })),
  GEETEST_KEY: Type.Optional(Type.String({ minLength: 1 })),
  GEETEST_VERIFY_URL: Url('http|https'),
  GEETEST_SCRIPT_URL: Url('http|https'),
  APP_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  CLIENT_APPS: Type.Optional(Type.String({ minLength: 2 })),
  SECOND_VERIFY: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on or off' }),
  ),
  WEB_DIST: Type.Optional(Type.String({ minLength: 1 })),
  SSO_DIST: Type.Optional(Type.String({ minLength: 1 })),
  APP_WEBVIEW_DIST: Type.Optional(Type.String({ minLength: 1 })),
  SSO_HOST: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)*$',
      description: 'a lower-case host name such as sso.example.com',
    }),
  ),
  SSO_SERVICES: Type.Optional(Type.String()),
  DNS_RESOLVER: Type.Optional(
    Type.String({
      pattern: '^[^,\\s]+(,[^,\\s]+)*$',
      description: 'comma-separated DNS servers, address[:port] ([::1]:53 for IPv6)',
    }),
  ),
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_ISSUER: Url('http|https'),
  GITHUB_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GITHUB_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  GITHUB_BASE_URL: Url('http|https'),
  GITHUB_API_URL: Url('http|https'),
  WECHAT_APP_ID: Type.Optional(Type.String({ minLength: 1 })),
  WECHAT_APP_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  WECHAT_BASE_URL: Url('http|https'),
  WECHAT_API_URL: Url('http|https'),
  OAUTH_DEV_ORIGINS: Type.Optional(Type.String()),
  PROFILE_QUOTAS: Type.Optional(
    Type.String({
      pattern:
        '^[a-z_]+\\.[a-z_]+=[0-9]{1,6}/[1-9][0-9]{0,9}(,[a-z_]+\\.[a-z_]+=[0-9]{1,6}/[1-9][0-9]{0,9})*$',
      description: 'comma-separated namespace.field=times/seconds',
    }),
  ),
  OPERATOR_USER_IDS: Type.Optional(Type.String()),
  CANCEL_COOLING_OFF_DAYS: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,3}$', description: 'a whole number of days 0–999' }),
  ),
  TEST_CLOCK: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on or off' }),
  ),
  WEBHOOK_RETRY_HOURS: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'a whole number of hours 1–999' }),
  ),
  WEBHOOK_PRIVATE_TARGETS: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on or off' }),
  ),
  WEBHOOK_DELIVERY_RETENTION_DAYS: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'a whole number of days 1–9999' }),
  ),
  INVITE_TTL_SECONDS: Seconds,
  CHAT_WEBHOOK_URL: Url('http|https'),
  CHAT_WEBHOOK_TOKEN: Type.Optional(Type.String()),
  WAITLIST: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on or off' }),
  ),
  CHALLENGE_RENDER_NICENESS: Type.Optional(
    Type.String({ pattern: '^(1[0-9]|[0-9])$', description: 'a niceness 0–19' }),
  ),
  MONITOR_RETENTION_DAYS: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'a whole number of days 1–9999' }),
  ),
  AUDIT_RETENTION_DAYS: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'a whole number of days 1–9999' }),
  ),
  OPEN_REGISTRATION_TOKEN: Type.Optional(
    Type.String({ minLength: 32, description: 'at least 32 characters' }),
  ),
  OPEN_RESOURCE_SERVERS: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64})*$',
      description: 'comma-separated client ids',
    }),
  ),
  OPEN_SCOPES: Type.Optional(
    Type.String({
      pattern:
        '^[a-z][a-z0-9_.]{0,39}=[^|,]{1,80}\\|[^|,]{1,80}(,[a-z][a-z0-9_.]{0,39}=[^|,]{1,80}\\|[^|,]{1,80})*$',
      description: 'comma-separated name=中文|English',
    }),
  ),
  RISK_THRESHOLDS: Type.Optional(
    Type.Union([Type.Literal('default'), Type.Literal('relaxed')], { description: 'default or relaxed' }),
  ),
  DEV_NETWORK: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on or off' }),
  ),
  POW_DIFFICULTY: Type.Optional(
    Type.Union([Type.Literal('default'), Type.Literal('test')], { description: 'default or test' }),
  ),
  PASSKEY_RP_ID: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)*$',
      description: 'a lower-case host name such as example.com',
    }),
  ),
  PASSKEY_ORIGINS: Type.Optional(Type.String()),
});
export type Env = Static<typeof EnvSchema>;

const envCheck = Compile(EnvSchema);
const countries = new Set<string>(getCountries());

function origin(variable: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.origin;
  } catch {
    throw new ConfigError(variable, `"${value}" is not an http(s) origin such as https://example.com`);
  }
}

/** Comma-separated origins, each checked and normalised. */
const origins = (variable: string, value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => origin(variable, s));

function region(variable: string, value: string): CountryCode {
  if (!countries.has(value))
    throw new ConfigError(variable, `"${value}" is not a country libphonenumber knows`);
  return value as CountryCode;
}

function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^[0-9]+$/.test(value)) return Number(value);
  return value;
}

/** Whether `host` is `rpId` or a subdomain of it: where a passkey of `rpId` may be used. */
export const onRelyingParty = (host: string, rpId: string) => host === rpId || host.endsWith(`.${rpId}`);

/** The relying party and its origins (PasskeyConfig), checked against each other. */
function passkeyConfig(
  e: Env,
  publicOrigin: string,
  allowedOrigins: string[],
  appName: string,
): PasskeyConfig {
  const publicHost = new URL(publicOrigin).hostname;
  const rpId = e.PASSKEY_RP_ID ?? e.COOKIE_DOMAIN?.replace(/^\./, '') ?? publicHost;
  if (!onRelyingParty(publicHost, rpId))
    throw new ConfigError(
      'PASSKEY_RP_ID',
      `"${rpId}" is not ${publicHost} nor a parent domain of it: passkeys would not work at PUBLIC_ORIGIN`,
    );
  const given = origins('PASSKEY_ORIGINS', e.PASSKEY_ORIGINS);
  for (const value of given)
    if (!onRelyingParty(new URL(value).hostname, rpId))
      throw new ConfigError('PASSKEY_ORIGINS', `${value} is not on ${rpId} or a subdomain of it`);
  const candidates = given.length > 0 ? given : [publicOrigin, ...allowedOrigins];
  return {
    rpId,
    rpName: appName,
    origins: [...new Set(candidates.filter((value) => onRelyingParty(new URL(value).hostname, rpId)))],
  };
}

/** The shortest idle timeout honoured: five times the interval at which a session's last use is written. */
export const MIN_IDLE_SECONDS = 300;

/**
 * Whether a listen address (HOST) takes connections from this machine only: 127.0.0.0/8, ::1,
 * localhost. 0.0.0.0, :: and any interface's address take them from the networks the machine is on.
 */
export function isLoopbackHost(host: string): boolean {
  const value = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return (
    value === 'localhost' ||
    value === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(value) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(value)
  );
}

/**
 * Who can reach the development switches (the dev outbox, the test clock, relaxed thresholds): 'this
 * machine' when both the users (a loopback PUBLIC_ORIGIN) and the listen address (HOST) are loopback,
 * 'network' when the origin is loopback but the server listens on a network (HOST=0.0.0.0 in a
 * container), 'public' when the origin is not loopback.
 */
export function exposureOf(
  config: Pick<Config, 'publicOrigin' | 'host'>,
): 'this machine' | 'network' | 'public' {
  if (!isLoopbackOrigin(config.publicOrigin)) return 'public';
  return isLoopbackHost(config.host) ? 'this machine' : 'network';
}

/** Whether an origin is this machine only (localhost, 127.0.0.0/8, [::1]): nobody else can reach it. */
export function isLoopbackOrigin(value: string): boolean {
  const host = new URL(value).hostname;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * The other spellings of a loopback origin on the same scheme and port: `localhost`, `127.0.0.1` and
 * `[::1]` reach the same server, and a developer opens whichever the banner or a habit suggests.
 */
function loopbackAliases(value: string): string[] {
  if (!isLoopbackOrigin(value)) return [];
  const url = new URL(value);
  const port = url.port ? `:${url.port}` : '';
  return ['localhost', '127.0.0.1', '[::1]']
    .map((host) => `${url.protocol}//${host}${port}`)
    .filter((alias) => alias !== value);
}

/** Reads and validates the environment; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const first = envCheck.Errors(raw)[0];
  if (first) {
    const variable = first.instancePath.replace(/^\//, '') || 'environment';
    const schema = (EnvSchema.properties as Record<string, { description?: string }>)[variable];
    throw new ConfigError(
      variable,
      `"${raw[variable]}" is not ${schema?.description ?? 'valid'} (${first.message})`,
    );
  }
  const e = raw as Env;
  const port = e.PORT === undefined ? 3000 : Number(e.PORT);
  if (port > 65535) throw new ConfigError('PORT', `"${e.PORT}" is not a port number 0–65535`);
  const idle = e.SESSION_IDLE_SECONDS === undefined ? 7 * 86400 : Number(e.SESSION_IDLE_SECONDS);
  const absolute = e.SESSION_ABSOLUTE_SECONDS === undefined ? 30 * 86400 : Number(e.SESSION_ABSOLUTE_SECONDS);
  // A session's last use is written at most once a minute (limits.sessionTouchMs), so an idle timeout
  // must be several minutes for an active session never to look idle.
  if (idle < MIN_IDLE_SECONDS) {
    throw new ConfigError(
      'SESSION_IDLE_SECONDS',
      `"${idle}" is below ${MIN_IDLE_SECONDS}: last use is recorded once a minute, so a shorter idle timeout would end sessions in use`,
    );
  }
  if (absolute < idle) {
    throw new ConfigError('SESSION_ABSOLUTE_SECONDS', `must be at least SESSION_IDLE_SECONDS (${idle})`);
  }
  const publicOrigin = e.PUBLIC_ORIGIN
    ? origin('PUBLIC_ORIGIN', e.PUBLIC_ORIGIN)
    : `http://localhost:${port}`;
  // The dev outbox (every code "sent") and the dev challenge answers are readable by whoever reaches the
  // server: by default only when the users are this machine; anywhere else only when asked for by name.
  if (
    (e.DEV_OUTBOX ?? 'auto') === 'auto' &&
    !e.SMTP_URL &&
    !e.SMS_WEBHOOK_URL &&
    !isLoopbackOrigin(publicOrigin)
  ) {
    throw new ConfigError(
      'DEV_OUTBOX',
      `no SMTP_URL or SMS_WEBHOOK_URL is set, so every code would be readable at ${publicOrigin}/dev/outbox; ` +
        'set the delivery providers, or DEV_OUTBOX=on to publish codes on purpose (a demo), or DEV_OUTBOX=off',
    );
  }
  // The same on a loopback origin served on a network (HOST=0.0.0.0): the origin says who the users
  // are, the listen address who can reach the server; the outbox must be asked for by name there too.
  const host = e.HOST ?? '127.0.0.1';
  const onNetwork = isLoopbackOrigin(publicOrigin) && !isLoopbackHost(host);
  if (onNetwork && e.DEV_OUTBOX === undefined && !e.SMTP_URL && !e.SMS_WEBHOOK_URL) {
    throw new ConfigError(
      'DEV_OUTBOX',
      `HOST=${host} listens beyond this machine, so every code would be readable by anyone who can reach ${host}:${port}/dev/outbox; ` +
        'set DEV_OUTBOX=on to publish codes on purpose, DEV_OUTBOX=off, or HOST=127.0.0.1',
    );
  }
  const devNetwork = e.DEV_NETWORK === 'on';
  // A loopback public origin (the development default) is one origin under all its spellings.
  const apps = clientApps(e.CLIENT_APPS);
  const allowedOrigins = [
    ...new Set([
      ...origins('ALLOWED_ORIGINS', e.ALLOWED_ORIGINS),
      ...loopbackAliases(publicOrigin),
      ...(apps ?? []).flatMap((app) => app.origins),
    ]),
  ];
  const given: Record<string, string | undefined> = raw;
  // An app served at a host of its own sends its API calls from that origin: the CORS and CSRF origin
  // checks must know it, or every sign-in there would fail its CSRF check.
  for (const entry of APPS) {
    const host = entry.hostVariable ? given[entry.hostVariable] : undefined;
    if (!host || [publicOrigin, ...allowedOrigins].some((known) => new URL(known).hostname === host))
      continue;
    throw new ConfigError(
      entry.hostVariable ?? 'environment',
      `the ${entry.name} app at ${host} calls the API from that origin: add it to ALLOWED_ORIGINS (e.g. ${new URL(publicOrigin).protocol}//${host})`,
    );
  }
  return {
    port,
    host,
    dataDir: resolve(e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    // PostgreSQL's lock_timeout is in milliseconds up to 2³¹ − 1: longer waits are that long.
    migrationWaitSeconds: Math.min(
      e.MIGRATION_WAIT_SECONDS === undefined ? 600 : Number(e.MIGRATION_WAIT_SECONDS),
      2_147_483,
    ),
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX ?? 'portico:',
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? 'Portico <no-reply@localhost>',
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    smsWebhookToken: e.SMS_WEBHOOK_TOKEN,
    devOutbox: e.DEV_OUTBOX ?? 'auto',
    publicOrigin,
    allowedOrigins,
    cookieDomain: e.COOKIE_DOMAIN,
    trustProxy: trustProxy(e.TRUST_PROXY),
    defaultRegion: region('DEFAULT_REGION', e.DEFAULT_REGION ?? 'CN'),
    allowedRegions: e.ALLOWED_REGIONS?.split(',').map((r) => region('ALLOWED_REGIONS', r)),
    sessionIdleSeconds: idle,
    sessionAbsoluteSeconds: absolute,
    logLevel: e.LOG_LEVEL ?? 'info',
    secret: e.SECRET,
    replaceSigningKeys: e.REPLACE_SIGNING_KEYS === 'on',
    captchaProvider: captchaProviderConfig(e),
    appName: e.APP_NAME ?? 'Portico',
    clientApps: apps,
    secondVerify: e.SECOND_VERIFY !== 'off',
    apps: APPS.map((entry) => {
      const host = entry.hostVariable ? given[entry.hostVariable] : undefined;
      return {
        name: entry.name,
        mount: entry.mount,
        // src/config.ts and the bundled dist/*.js both sit one level below the package folder.
        dist: resolve(
          given[entry.distVariable] ?? fileURLToPath(new URL(`../../${entry.name}/dist`, import.meta.url)),
        ),
        ...(host ? { host } : {}),
      };
    }),
    ssoServices: origins('SSO_SERVICES', e.SSO_SERVICES),
    ...(e.DNS_RESOLVER ? { dnsResolver: e.DNS_RESOLVER.split(',') } : {}),
    profileQuotas: Object.fromEntries(
      (e.PROFILE_QUOTAS ? e.PROFILE_QUOTAS.split(',') : []).map((entry) => {
        const [key = '', rule = ''] = entry.split('=');
        const [times, seconds] = rule.split('/').map(Number);
        return [key, { times: times ?? 0, windowSeconds: seconds ?? 1 }];
      }),
    ),
    operators: (e.OPERATOR_USER_IDS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    cancelCoolingOffDays: Number(e.CANCEL_COOLING_OFF_DAYS ?? 15),
    inviteTtlSeconds: Number(e.INVITE_TTL_SECONDS ?? INVITE_TTL_DEFAULT_SECONDS),
    chatWebhookUrl: e.CHAT_WEBHOOK_URL,
    chatWebhookToken: e.CHAT_WEBHOOK_TOKEN,
    testClock: testClock(e.TEST_CLOCK, publicOrigin, onNetwork && !devNetwork ? host : null),
    riskThresholds: riskThresholds(e.RISK_THRESHOLDS, publicOrigin, onNetwork && !devNetwork ? host : null),
    powDifficulty: powDifficulty(e.POW_DIFFICULTY, publicOrigin, e.HOST ?? '127.0.0.1'),
    fictionalNumbers: isLoopbackOrigin(publicOrigin),
    oauth: oauthConfig(e),
    waitlist: e.WAITLIST === 'on',
    monitorRetentionDays: Number(e.MONITOR_RETENTION_DAYS ?? 30),
    renderNiceness: Number(e.CHALLENGE_RENDER_NICENESS ?? RENDER_NICENESS),
    auditRetentionDays: Number(e.AUDIT_RETENTION_DAYS ?? 365),
    webhooks: {
      retryHours: Number(e.WEBHOOK_RETRY_HOURS ?? 24),
      privateTargets: privateTargets(e.WEBHOOK_PRIVATE_TARGETS, publicOrigin),
      deliveryRetentionDays: Number(e.WEBHOOK_DELIVERY_RETENTION_DAYS ?? 30),
    },
    openAuth: openAuthConfig(e),
    passkeys: passkeyConfig(e, publicOrigin, allowedOrigins, e.APP_NAME ?? 'Portico'),
  };
}

export interface CaptchaProviderConfig {
  name: 'turnstile' | 'hcaptcha' | 'geetest';
  mode: 'behind' | 'instead';
  /** The public key the widget shows (Turnstile/hCaptcha site key, GeeTest captcha id). */
  siteKey: string;
  /** The server-side secret (GeeTest: the captcha key that signs lot numbers). */
  secret: string;
  /** The provider's verification endpoint (its documented default unless a *_VERIFY_URL is set). */
  verifyUrl: string;
  /**
   * The widget's script, which the page loads (its documented address unless a *_SCRIPT_URL is set: a
   * deployment that self-hosts it, or a test on loopback). Its origin joins the pages' CSP.
   */
  scriptUrl: string;
}

/** A provider's variables, and its documented endpoints where a variable is not set. */
interface CaptchaProviderVariables {
  siteKey: keyof Env;
  secret: keyof Env;
  verifyUrl: { variable: keyof Env; documented: string };
  scriptUrl: { variable: keyof Env; documented: string };
}

const CAPTCHA_PROVIDERS: Record<CaptchaProviderConfig['name'], CaptchaProviderVariables> = {
  turnstile: {
    siteKey: 'TURNSTILE_SITE_KEY',
    secret: 'TURNSTILE_SECRET',
    verifyUrl: {
      variable: 'TURNSTILE_VERIFY_URL',
      documented: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    },
    scriptUrl: {
      variable: 'TURNSTILE_SCRIPT_URL',
      documented: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    },
  },
  hcaptcha: {
    siteKey: 'HCAPTCHA_SITE_KEY',
    secret: 'HCAPTCHA_SECRET',
    verifyUrl: { variable: 'HCAPTCHA_VERIFY_URL', documented: 'https://api.hcaptcha.com/siteverify' },
    scriptUrl: {
      variable: 'HCAPTCHA_SCRIPT_URL',
      documented: 'https://js.hcaptcha.com/1/api.js?render=explicit',
    },
  },
  geetest: {
    siteKey: 'GEETEST_ID',
    secret: 'GEETEST_KEY',
    verifyUrl: { variable: 'GEETEST_VERIFY_URL', documented: 'https://gcaptcha4.geetest.com/validate' },
    scriptUrl: { variable: 'GEETEST_SCRIPT_URL', documented: 'https://static.geetest.com/v4/gt4.js' },
  },
};

/** The provider's settings, complete or refused at start with the missing variable named. */
function captchaProviderConfig(e: Env): CaptchaProviderConfig | undefined {
  const name = e.CAPTCHA_PROVIDER ?? 'none';
  if (name === 'none') return undefined;
  const provider = CAPTCHA_PROVIDERS[name];
  for (const variable of [provider.siteKey, provider.secret]) {
    if (!e[variable])
      throw new ConfigError(String(variable), `CAPTCHA_PROVIDER=${name} needs ${String(variable)}`);
  }
  return {
    name,
    mode: e.CAPTCHA_PROVIDER_MODE ?? 'behind',
    siteKey: String(e[provider.siteKey]),
    secret: String(e[provider.secret]),
    verifyUrl: String(e[provider.verifyUrl.variable] ?? provider.verifyUrl.documented),
    scriptUrl: String(e[provider.scriptUrl.variable] ?? provider.scriptUrl.documented),
  };
}

/** The scope every app gets, described for the consent page. */
export const USER_INFO_SCOPE: OpenScope = {
  name: 'user_info',
  zh: '获取你的公开信息（昵称、头像）',
  en: 'Your public profile (name and picture)',
};

/**
 * The OpenID Connect standard scopes Portico serves, and its organisation scope, each with the claims
 * it releases (docs/open-authorization.md, "Scopes and claims") and what the consent page says.
 */
export const STANDARD_SCOPES: readonly (OpenScope & { claims: readonly string[] })[] = [
  {
    name: 'profile',
    zh: '你的基本资料（昵称、头像、资料更新时间）',
    en: 'Your basic profile (name, picture, when it last changed)',
    claims: ['name', 'picture', 'locale', 'updated_at'],
  },
  {
    name: 'email',
    zh: '你的邮箱地址',
    en: 'Your e-mail address',
    claims: ['email', 'email_verified'],
  },
  {
    name: 'phone',
    zh: '你的手机号',
    en: 'Your mobile number',
    claims: ['phone_number', 'phone_number_verified'],
  },
  {
    name: 'organisations',
    zh: '你所在的组织，以及你在其中的身份名称和是否为管理员',
    en: 'The organisations you belong to, your name in each and whether you manage it',
    claims: ['organisations'],
  },
];

/** The scopes an app may ask for, described: user_info, the standard ones, then OPEN_SCOPES. */
export const openScopesOf = (config: Pick<Config, 'openAuth'>): OpenScope[] => [
  USER_INFO_SCOPE,
  ...STANDARD_SCOPES.map(({ name, zh, en }) => ({ name, zh, en })),
  ...config.openAuth.scopes,
];

/** Scope names that mean something to OpenID Connect or to Portico itself and cannot be declared again. */
const RESERVED_SCOPES = new Set([
  'openid',
  'offline_access',
  'address',
  'user_info',
  ...STANDARD_SCOPES.map((scope) => scope.name),
]);

function openAuthConfig(e: Env): OpenAuthConfig {
  const scopes = (e.OPEN_SCOPES ? e.OPEN_SCOPES.split(',') : []).map((entry) => {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at);
    const [zh = '', en = ''] = entry.slice(at + 1).split('|');
    if (RESERVED_SCOPES.has(name)) throw new ConfigError('OPEN_SCOPES', `"${name}" is reserved`);
    return { name, zh: zh.trim(), en: en.trim() };
  });
  const resourceServers = e.OPEN_RESOURCE_SERVERS ? e.OPEN_RESOURCE_SERVERS.split(',') : [];
  return { registrationToken: e.OPEN_REGISTRATION_TOKEN, scopes, resourceServers };
}

/** A provider needs its id and secret both; one without the other is a mistake worth stopping for. */
function oauthConfig(e: Env): OAuthConfig {
  const pair = (idName: keyof Env, secretName: keyof Env) => {
    const id = e[idName];
    const secret = e[secretName];
    if (!id !== !secret) {
      throw new ConfigError(id ? secretName : idName, `set both ${idName} and ${secretName}, or neither`);
    }
    return typeof id === 'string' && typeof secret === 'string'
      ? { clientId: id, clientSecret: secret }
      : undefined;
  };
  const google = pair('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET');
  const github = pair('GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET');
  const wechat = pair('WECHAT_APP_ID', 'WECHAT_APP_SECRET');
  const devOrigins = origins('OAUTH_DEV_ORIGINS', e.OAUTH_DEV_ORIGINS);
  for (const dev of devOrigins) {
    if (!isLoopbackOrigin(dev)) {
      throw new ConfigError('OAUTH_DEV_ORIGINS', `"${dev}" is not a loopback origin (localhost, 127.0.0.1)`);
    }
  }
  return {
    ...(google ? { google: { ...google, issuer: e.GOOGLE_ISSUER ?? 'https://accounts.google.com' } } : {}),
    ...(github
      ? {
          github: {
            ...github,
            baseUrl: (e.GITHUB_BASE_URL ?? 'https://github.com').replace(/\/+$/, ''),
            apiUrl: (e.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
          },
        }
      : {}),
    ...(wechat
      ? {
          wechat: {
            appId: wechat.clientId,
            appSecret: wechat.clientSecret,
            baseUrl: (e.WECHAT_BASE_URL ?? 'https://open.weixin.qq.com').replace(/\/+$/, ''),
            apiUrl: (e.WECHAT_API_URL ?? 'https://api.weixin.qq.com').replace(/\/+$/, ''),
          },
        }
      : {}),
    devOrigins,
  };
}

/** What to add when a development switch is refused on a network listen address (`exposedOn`). */
const onNetworkAdvice = (host: string) =>
  `HOST=${host} listens beyond this machine; set DEV_NETWORK=on to expose it to that network on purpose, or HOST=127.0.0.1`;

/**
 * The test clock only on a loopback origin: it moves time for everybody using the server. `exposedOn`:
 * the listen address when it is not loopback and DEV_NETWORK=on does not say so.
 */
function testClock(value: string | undefined, publicOrigin: string, exposedOn: string | null): boolean {
  if (value !== 'on') return false;
  if (!isLoopbackOrigin(publicOrigin))
    throw new ConfigError(
      'TEST_CLOCK',
      `the test clock moves time for every user; ${publicOrigin} is not a loopback origin`,
    );
  if (exposedOn !== null)
    throw new ConfigError(
      'TEST_CLOCK',
      `the test clock moves time for every user; ${onNetworkAdvice(exposedOn)}`,
    );
  return true;
}

function privateTargets(value: string | undefined, publicOrigin: string): boolean {
  if (value !== 'on') return false;
  if (!isLoopbackOrigin(publicOrigin))
    throw new ConfigError(
      'WEBHOOK_PRIVATE_TARGETS',
      `webhooks to private addresses reach inside the server's network; ${publicOrigin} is not a loopback origin`,
    );
  return true;
}

function riskThresholds(
  value: string | undefined,
  publicOrigin: string,
  exposedOn: string | null,
): 'default' | 'relaxed' {
  if (value !== 'relaxed') return 'default';
  if (!isLoopbackOrigin(publicOrigin))
    throw new ConfigError(
      'RISK_THRESHOLDS',
      `relaxed thresholds let anyone send codes and guess without a captcha; ${publicOrigin} is not a loopback origin (development only)`,
    );
  if (exposedOn !== null)
    throw new ConfigError(
      'RISK_THRESHOLDS',
      `relaxed thresholds let anyone send codes and guess without a captcha; ${onNetworkAdvice(exposedOn)}`,
    );
  return 'relaxed';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

function powDifficulty(value: string | undefined, publicOrigin: string, host: string): 'default' | 'test' {
  if (value !== 'test') return 'default';
  if (!isLoopbackOrigin(publicOrigin) || !LOOPBACK_HOSTS.has(host))
    throw new ConfigError(
      'POW_DIFFICULTY',
      `the test difficulty lets a script pass the challenge for nothing; ${publicOrigin} (listening on ${host}) is not loopback (tests only)`,
    );
  return 'test';
}

/** One app of CLIENT_APPS. */
export interface ClientApp {
  aid: string;
  name: string;
  /** The origins its pages call the API from (added to the allowed origins). */
  origins: string[];
  /** How its phone inputs read a number without a +country prefix (DEFAULT_REGION otherwise). */
  defaultRegion: CountryCode | undefined;
}

/**
 * CLIENT_APPS is JSON: `[{"aid": 1128, "name": "Acme", "origins": ["https://app.acme.test"],
 * "default_region": "GB"}]`; `origins` and `default_region` are optional.
 */
function clientApps(value: string | undefined): ClientApp[] | undefined {
  if (value === undefined) return undefined;
  const fail = (why: string): never => {
    throw new ConfigError('CLIENT_APPS', why);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    fail('is not JSON: write [{"aid": 1128, "name": "Acme", "origins": ["https://app.acme.test"]}]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return fail('must be a non-empty JSON array of apps');
  const seen = new Set<string>();
  return parsed.map((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) return fail(`entry ${index} is not an object`);
    const { aid, name, origins: list, default_region: defaultRegion } = entry as Record<string, unknown>;
    const id = typeof aid === 'number' || typeof aid === 'string' ? String(aid) : '';
    if (!/^[0-9A-Za-z_-]{1,32}$/.test(id))
      fail(`entry ${index}: "aid" must be 1 to 32 letters, digits, - or _ (the SDK's aid)`);
    if (seen.has(id)) fail(`aid ${id} is listed twice`);
    seen.add(id);
    if (typeof name !== 'string' || name.length < 1 || name.length > 40)
      fail(`aid ${id}: "name" must be a string of 1 to 40 characters`);
    if (list !== undefined && (!Array.isArray(list) || list.some((o) => typeof o !== 'string')))
      fail(`aid ${id}: "origins" must be an array of origins such as "https://app.example.com"`);
    if (defaultRegion !== undefined && typeof defaultRegion !== 'string')
      fail(`aid ${id}: "default_region" must be a country code such as "CN"`);
    return {
      aid: id,
      name: name as string,
      origins: ((list ?? []) as string[]).map((o) => origin('CLIENT_APPS', o)),
      defaultRegion: defaultRegion === undefined ? undefined : region('CLIENT_APPS', defaultRegion as string),
    };
  });
}

/** A config from the defaults plus overrides, for tests and benchmarks. */
export function defineConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
