import ky from 'ky';
import { waitForFingerprint } from '../fingerprint/wait-for-fingerprint';
import { webIdCookie } from '../fingerprint/web-id-cookie';
import type { AccountHooks } from '../hooks/types';
import {
  DEFAULT_DID,
  DEFAULT_IID,
  DEFAULT_LANGUAGE,
  DEFAULT_REGION,
  REQUEST_TIMEOUT,
} from '../protocol/client-defaults';
import type { AccountSource } from '../protocol/defaults';
import { SDK_VERSION } from '../protocol/defaults';
import { mixEncode } from '../protocol/mix';
import { send, type Transport } from '../transport/send';
import type { AccountClient, AccountClientOptions, CookieDocument, RequestConfig } from './types';

const SOURCES: readonly AccountSource[] = ['web', 'app', 'sso'];
/** The key of the client's own hooks among the plugins'. */
const HOOKS = Symbol();

/** Resends one call may make (ky's retry limit): a CSRF renewal and a few challenges. */
const MAX_RESENDS = 5;

function wiring(message: string): never {
  throw new TypeError(`createAccountClient: ${message}`);
}

/** The environment summary sent (mix-encoded) as `account_sdk_source_info`. */
function sourceInfo(appName: string | undefined): string {
  const nav = globalThis.navigator;
  return mixEncode(
    JSON.stringify({
      appName,
      userAgent: nav?.userAgent,
      language: nav?.language,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    }),
  );
}

/**
 * Creates the account client every call takes. Wiring mistakes (no aid, an unknown source, a region
 * without a base URL, no base URL outside a browser) throw a TypeError at once, saying the fix.
 */
export function createAccountClient(options: AccountClientOptions): AccountClient {
  const {
    aid,
    source = 'web',
    region,
    regions,
    timeout = REQUEST_TIMEOUT,
  } = options ?? ({} as AccountClientOptions);
  if ((typeof aid !== 'string' && typeof aid !== 'number') || aid === '')
    wiring('options.aid is required: pass your app id, e.g. { aid: 1128 }');
  if (!SOURCES.includes(source)) wiring(`options.source must be web, app or sso, not ${source}`);
  if (!(timeout > 0)) wiring(`options.timeout must be milliseconds above 0, not ${timeout}`);
  let { baseUrl } = options;
  if (!baseUrl && (region || regions)) {
    const name = region ?? DEFAULT_REGION;
    baseUrl = regions?.[name] ?? wiring(`region ${name} has no base URL: pass regions: { ${name}: url }`);
  }
  if (!baseUrl && typeof location === 'undefined')
    wiring("no page origin here: pass baseUrl, e.g. 'https://passport.example.com'");
  const doc: CookieDocument | undefined = options.document ?? globalThis.document;
  const language = options.language ?? DEFAULT_LANGUAGE;
  // The client's own hooks first, then each plugin's in the order of `use` (a Map keeps it).
  const hooks = new Map<unknown, AccountHooks>([[HOOKS, options.hooks ?? {}]]);
  const t: Transport = {
    aid: String(aid),
    common: {
      aid: String(aid),
      account_sdk_source: source,
      sdk_version: SDK_VERSION,
      language,
      did: options.did ?? DEFAULT_DID,
      iid: options.iid ?? DEFAULT_IID,
      account_sdk_source_info: sourceInfo(options.appName),
    },
    printLog: !!options.printLog,
    http: ky.create({
      ...(baseUrl && { prefix: baseUrl }),
      ...(options.fetch && { fetch: options.fetch }),
      credentials: 'include',
      timeout,
      // The envelope, not the status, says whether a call failed; ky retries only when a hook forces it.
      throwHttpErrors: false,
      retry: { limit: MAX_RESENDS, methods: [] },
    }),
    doc,
    fingerprint: waitForFingerprint(
      options.fingerprint ?? (doc ? webIdCookie(doc, options.cookieDomain) : () => ''),
    ),
    signer: options.signer,
    hooks,
  };
  const client: AccountClient = {
    aid: t.aid,
    source,
    baseUrl,
    language,
    use(plugin) {
      const { name } = plugin;
      if (hooks.has(name))
        throw new TypeError(
          `client.use: the ${name} plugin is in use already; call its remove function first`,
        );
      const added = plugin.setup(client);
      hooks.set(name, added);
      return () => void (hooks.get(name) === added && hooks.delete(name));
    },
    request: (request) =>
      send(t, {
        method: 'POST',
        envelope: 'web',
        ...request,
        data: { ...request.data },
        query: { ...request.query },
        headers: { ...request.headers },
        retryCount: 0,
      } as RequestConfig) as never,
  };
  return client;
}
