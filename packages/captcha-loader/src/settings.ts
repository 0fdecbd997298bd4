import { DEFAULTS, isSuccess, TIMEOUTS, vcPaths } from '@portico/account-sdk/protocol';
import type { Clock, FetchLike } from './environment';
import { CaptchaLoadError } from './errors';

/**
 * What `GET /vc/setting?aid=…&language=…` carries in the web envelope's data
 * (`{"message":"success","data":{…}}`): where the challenge script lives.
 */
export interface ChallengeSettings {
  /** The primary script address: absolute, or a path resolved against the loader's `baseUrl`. */
  sdk_url: string;
  /** Backup script addresses, tried in order after the primary. May be empty. */
  backup_urls: string[];
  /** The script's version, for logs and the `onLoad` hook. */
  version?: string;
}

export interface SettingsRequest {
  baseUrl: string;
  aid: string;
  language: string;
  fetch: FetchLike;
  clock: Clock;
  /** Per attempt. Default `TIMEOUTS.scriptFetch` (20000 ms). */
  timeout?: number;
  /** Extra attempts after the first. Default `TIMEOUTS.settingsRetries` (1). */
  retries?: number;
}

/** A path ('/vc/…') on `baseUrl`; absolute and protocol-relative addresses are kept as they are. */
export function resolveUrl(baseUrl: string, url: string): string {
  if (/^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(url)) return url;
  return baseUrl.replace(/\/+$/, '') + (url.startsWith('/') ? url : `/${url}`);
}

function parseSettings(body: unknown): ChallengeSettings | string {
  if (!isSuccess('web', body)) return 'the answer is not a success envelope';
  const data = (body as { data?: unknown }).data as Partial<ChallengeSettings> | undefined;
  if (typeof data?.sdk_url !== 'string' || data.sdk_url === '') return 'data.sdk_url is missing';
  const backups = data.backup_urls ?? [];
  if (!Array.isArray(backups) || backups.some((u) => typeof u !== 'string' || u === '')) {
    return 'data.backup_urls is not a list of addresses';
  }
  const settings: ChallengeSettings = { sdk_url: data.sdk_url, backup_urls: [...backups] };
  if (typeof data.version === 'string') settings.version = data.version;
  return settings;
}

async function attempt(url: string, request: SettingsRequest, timeout: number): Promise<ChallengeSettings> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = request.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  try {
    const response = await request.fetch(url, {
      method: 'GET',
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = parseSettings(await response.json());
    if (typeof parsed === 'string') throw new Error(parsed);
    return parsed;
  } catch (error) {
    if (timedOut) throw new Error(`no answer within ${timeout} ms`, { cause: error });
    throw error;
  } finally {
    request.clock.clearTimeout(timer);
  }
}

/** Fetches the challenge settings, retrying once (spec §9); rejects with a `settings` CaptchaLoadError. */
export async function fetchChallengeSettings(request: SettingsRequest): Promise<ChallengeSettings> {
  const query = new URLSearchParams({ aid: request.aid, language: request.language || DEFAULTS.language });
  // `vcPaths` is `paths.vc`; importing the family alone keeps the other path tables out of the bundle.
  const url = `${resolveUrl(request.baseUrl, vcPaths.setting)}?${query}`;
  const timeout = request.timeout ?? TIMEOUTS.scriptFetch;
  const attempts = 1 + (request.retries ?? TIMEOUTS.settingsRetries);
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await attempt(url, request, timeout);
    } catch (error) {
      last = error;
    }
  }
  const reason = last instanceof Error ? last.message : String(last);
  throw new CaptchaLoadError({
    type: 'settings',
    message: `Challenge settings from GET ${url} failed after ${attempts} attempts: ${reason}`,
    url,
    cause: last,
  });
}
