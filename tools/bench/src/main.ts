// `pnpm bench`: every figure of docs/benchmarks.md, measured in one run on loopback.
//
// Each system under test runs in its own child process: the bare Fastify route (the floor), raw
// argon2id, Portico seeded with 1,000 accounts, Portico seeded with 100,000 accounts, and Better Auth.
// All are started first and sit idle while not measured. The load generator, autocannon, runs in this
// process. Figures that are compared with each other are measured interleaved — short slices in turn,
// several rounds — so that a busy neighbour on the shared machine slows both sides of a ratio alike.
// Every load is bounded by a duration or a request count, and each case gets at most
// ROUNDS × SLICE_SECONDS ≤ 10 s of measured load. Progress goes to stderr; the markdown report to stdout.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { challengeCost } from './challenge-cost.ts';
import { type Backend, backendMicros, cleanUp, type Deployment, deploy } from './deploy.ts';
import { instructionsPerRequest, underCallgrind } from './instructions.ts';
import { Target } from './ipc.ts';
import { type Figures, figures, type LoadCase, load, MAX_SECONDS, type Sample } from './load.ts';
import { passkeyReport, passkeyVerifyCost } from './passkey-verify.ts';
import { summariseProfiles } from './profile.ts';
import { ARGON2_OPTIONS, BENCH_REGISTRATION_TOKEN, emailOf, mobileOf, SEED_PASSWORD } from './shared.ts';

/** The backends every Portico case runs on: the embedded default, and what a team of several servers runs. */
const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];
const BACKEND_NAME: Record<Backend, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL + Redis' };
/** The small size every growth figure is read against (the same cost reads 100 %). */
const SMALL = 1_000;
/**
 * The large size, per backend: 100,000 accounts by default, so that a default run ends within 10
 * minutes. BENCH_SIZE=1m seeds both backends to 1,000,000; BENCH_SIZE=10m seeds PostgreSQL to
 * 10,000,000 (SQLite stays at 1,000,000: an embedded single file is not what a team of that size runs);
 * a plain number (BENCH_SIZE=20000) makes a quick run while developing.
 */
const BIG: Record<Backend, number> = (() => {
  const size = process.env.BENCH_SIZE ?? '100k';
  if (size === '100k') return { sqlite: 100_000, postgres: 100_000 };
  if (size === '1m') return { sqlite: 1_000_000, postgres: 1_000_000 };
  if (size === '10m') return { sqlite: 1_000_000, postgres: 10_000_000 };
  const n = Number(size);
  if (!Number.isInteger(n) || n < 2 * SMALL)
    throw new Error('BENCH_SIZE: 100k, 1m, 10m or a number of accounts ≥ 2000');
  return { sqlite: n, postgres: n };
})();
/** The server of the single-case runs (BENCH_ONLY): SQLite, seeded to this many accounts. */
const ONLY_SIZE = 100_000;
/** Server processes behind the round-robin proxy (PostgreSQL + Redis, the large size). */
const SERVER_COUNTS = [1, 2, 4] as const;
/** Interleaved rounds, and the length of one measured slice. */
const ROUNDS = 4;
const SLICE_SECONDS = 1.5;
const WARMUP_SECONDS = 1;
/** Connections for the cheap requests (floor, session checks). */
const READ_CONNECTIONS = 32;
/** Connections for sign-ins: enough to keep the 4 libuv threads that run argon2 (or scrypt) busy. */
const LOGIN_CONNECTIONS = 8;
/** Connections for send-code and SMS login. */
const CODE_CONNECTIONS = 8;
/** Accounts with a live session for the session check, and accounts signing in with a password. */
const SESSION_ACCOUNTS = 64;
/** Codes issued and redeemed per round (spread over the accounts), and in the warm-up round. */
const CODE_ACCOUNTS = 200;
const WARM_CODE_ACCOUNTS = 50;
/** Better Auth accounts (signed up through its API). */
const BA_ACCOUNTS = 16;
/**
 * The unauthenticated puzzle flood: issue 10's client forced 834 renders in 10 s (83/s); the bench
 * floods at 120 puzzle requests per second. A flood without a rate only measures that one event loop
 * shares its time between two request streams (any cheap route would halve the other's throughput).
 */
const FLOOD_CONNECTIONS = 8;
const FLOOD_RATE = 120;
/** Challenge ids the flood draws from (5 puzzles each). */
const FLOOD_CHALLENGES = 4_000;
/** ErrorCode.challengeBusy: the pool is empty and its waiting room full. */
const CHALLENGE_BUSY = 1407;
/**
 * The collector (issue 18): batches of 20 events. Alone it is loaded as fast as it goes; beside the
 * session check at a steady 100 batches per second (2,000 events/s, the monitor's traffic from
 * thousands of sign-in pages at the spec's sampling rates), and the session check may lose at most 5 %.
 */
const COLLECTOR_CONNECTIONS = 8;
const COLLECTOR_RATE = 100;
/** Distinct batches (each its own session id) the collector's load cycles through. */
const COLLECTOR_BODIES = 4096;
const BATCH_EVENTS = 20;
/**
 * The whole run stops itself after this long, whatever happens: 10 minutes by default, 20 with
 * BENCH_SIZE=1m and 40 with BENCH_SIZE=10m (seeding ten million accounts alone takes several),
 * BENCH_MINUTES to choose.
 */
const RUN_LIMIT_MS =
  Number(process.env.BENCH_MINUTES ?? { '10m': 40, '1m': 20 }[process.env.BENCH_SIZE ?? ''] ?? 10) * 60_000;

if (ROUNDS * SLICE_SECONDS > MAX_SECONDS) throw new Error('a case may have at most 10 s of load');

const PATHS = {
  info: '/passport/web/account/info/',
  login: '/passport/web/user/login/',
  sendCode: '/passport/web/send_code/',
  smsLogin: '/passport/web/sms_login/',
  puzzle: '/vc/challenge',
  outbox: '/dev/outbox/messages',
  monitorBatch: '/monitor/batch/',
  register: '/oauth/reg',
  authorize: '/oauth/auth',
  token: '/oauth/token',
  consent: '/passport/open/web/auth/',
};
/** CodeType.mobileLogin */
const MOBILE_LOGIN = 24;

const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);
/** Stops every server, drops this run's schemas and Redis keys, and exits. */
function abandon(why: string, code: number) {
  log(why);
  Promise.all(targets.map((t) => t.stop()))
    .then(cleanUp)
    .finally(() => process.exit(code));
}
const watchdog = setTimeout(
  () => abandon(`the run passed ${RUN_LIMIT_MS / 60_000} minutes: stopping`, 2),
  RUN_LIMIT_MS,
);
watchdog.unref();
process.once('SIGINT', () => abandon('interrupted: stopping', 130));

// ---------------------------------------------------------------- helpers

type Jar = Map<string, string>;

function absorb(jar: Jar, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1);
    if (value === '' || /max-age=0\b/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}
const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
const form = (fields: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
const postHeaders = (jar: Jar) => ({
  'content-type': 'application/x-www-form-urlencoded',
  cookie: cookieHeader(jar),
  'x-tt-passport-csrf-token': jar.get('passport_csrf_token') ?? '',
});
const webOk = (body: string) => body.startsWith('{"message":"success"');
const label = (n: number) => n.toLocaleString('en');
const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const check = (ok: boolean) => (ok ? 'met' : '**missed**');

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return out;
}

/** `count` indices spread evenly over `size` accounts. */
const spread = (size: number, count: number) =>
  Array.from({ length: count }, (_, j) => Math.floor((j * size) / count));

// ---------------------------------------------------------------- interleaving

/** One side of a comparison: something that can be measured for a slice, again and again. */
interface Contender {
  system: string;
  case: string;
  accounts: string;
  /** Unmeasured warm-up (JIT, caches, connection pools). */
  warm(): Promise<unknown>;
  /** One measured slice. */
  slice(): Promise<Sample>;
  /** Work after a slice that is neither timed nor charged to its CPU (reading codes from the outbox). */
  settle?(): Promise<unknown>;
  samples: Sample[];
  result?: Figures;
}

function contender(
  system: string,
  name: string,
  accounts: string,
  parts: Pick<Contender, 'warm' | 'slice' | 'settle'>,
): Contender {
  return { system, case: name, accounts, samples: [], ...parts };
}

/** A contender that is one repeatable autocannon case. */
function loadContender(system: string, name: string, accounts: string, c: LoadCase): Contender {
  return contender(system, name, accounts, {
    warm: () => load({ ...c, seconds: WARMUP_SECONDS }),
    slice: () => load({ ...c, seconds: SLICE_SECONDS }),
  });
}

/** The same case with samples of its own: a comparison reads only the slices of its own interleave. */
const again = (c: Contender): Contender => ({ ...c, samples: [], result: undefined });

function describe(c: Contender, f: Figures): string {
  return (
    `${c.system} · ${c.case}${c.accounts ? ` · ${c.accounts}` : ''}: ${f.rps.toFixed(f.rps < 100 ? 1 : 0)}/s, ` +
    `p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms (${f.total} in ${f.seconds.toFixed(1)} s` +
    `${f.failures ? `, ${f.failures} FAILED` : ''})`
  );
}

/**
 * Warms every contender, then measures them in turn, ROUNDS times; every other round runs in reverse
 * order, so that no contender always follows the same neighbour.
 */
async function interleave(steps: (Contender | Contender[])[]): Promise<void> {
  // A step may be a group that must run in its own order (a code is sent before it is redeemed).
  const groups = steps.map((step) => (Array.isArray(step) ? step : [step]));
  const contenders = groups.flat();
  for (const c of contenders) await c.warm();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? groups : [...groups].reverse();
    for (const group of order)
      for (const c of group) {
        c.samples.push(await c.slice());
        await c.settle?.();
      }
  }
  for (const c of contenders) {
    c.result = figures(c.samples);
    log(describe(c, c.result));
  }
}

// ---------------------------------------------------------------- Portico

/** A browser before sign-in: the pre-session cookie and the CSRF token bound to it. */
async function anonymous(url: string): Promise<Jar> {
  const jar: Jar = new Map();
  const response = await fetch(url + PATHS.info);
  absorb(jar, response);
  await response.arrayBuffer();
  if (!jar.has('passport_csrf_token')) throw new Error('the server set no CSRF cookie');
  return jar;
}

async function post(url: string, path: string, jar: Jar, fields: Record<string, string | number>) {
  const response = await fetch(url + path, { method: 'POST', headers: postHeaders(jar), body: form(fields) });
  absorb(jar, response);
  const body = await response.text();
  if (!webOk(body)) throw new Error(`${path} answered ${response.status} ${body.slice(0, 300)}`);
  return body;
}

interface Code {
  mobile: string;
  code: string;
}

/** Issues one code to each mobile (send_code under load), then reads every code from the dev outbox. */
async function sendCodes(
  url: string,
  jar: Jar,
  mobiles: string[],
): Promise<{ sample: Sample; codes: Code[] }> {
  const sample = await sendOnly(url, jar, mobiles);
  return { sample, codes: await readCodes(url, mobiles) };
}

/** send_code once to each mobile, under load. */
function sendOnly(url: string, jar: Jar, mobiles: string[]): Promise<Sample> {
  let next = 0;
  return load({
    url,
    connections: CODE_CONNECTIONS,
    amount: mobiles.length,
    requests: [
      {
        method: 'POST',
        path: PATHS.sendCode,
        headers: postHeaders(jar),
        setupRequest: (request) => ({
          ...request,
          body: form({ mobile: mobiles[next++ % mobiles.length] as string, type: MOBILE_LOGIN }),
        }),
      },
    ],
    verify: webOk,
  });
}

/**
 * The codes the dev outbox holds for these mobiles (a development aid: never measured). A send slice
 * is cut at MAX_SECONDS, so on a slow machine some mobiles got no code: only the codes sent are
 * redeemed.
 */
async function readCodes(url: string, mobiles: string[]): Promise<Code[]> {
  const found = await pool(mobiles, 16, async (mobile) => {
    const response = await fetch(`${url}${PATHS.outbox}?to=${encodeURIComponent(mobile)}`);
    const body = (await response.json()) as { data: { messages: { text: string }[] } };
    const code = body.data.messages[0]?.text.match(/\b(\d{6})\b/)?.[1];
    return code ? { mobile, code } : undefined;
  });
  const codes = found.filter((c): c is Code => c !== undefined);
  if (!codes.length) throw new Error('no code in the outbox for any of the mobiles');
  return codes;
}

/** Redeems each code once through sms_login: existing accounts sign in, nothing is registered. */
function smsLogins(url: string, jar: Jar, codes: Code[]): Promise<Sample> {
  let next = 0;
  return load({
    url,
    connections: CODE_CONNECTIONS,
    amount: codes.length,
    requests: [
      {
        method: 'POST',
        path: PATHS.smsLogin,
        headers: postHeaders(jar),
        setupRequest: (request) => {
          const { mobile, code } = codes[next++ % codes.length] as Code;
          return { ...request, body: form({ mobile, code, type: MOBILE_LOGIN }) };
        },
      },
    ],
    verify: (body) => webOk(body) && body.includes('"new_user":false'),
  });
}

// ---------------------------------------------------------------- token refresh (the authorization server)

/** The relying party's redirect URI (never called: the code is read from the provider's redirect). */
const RP_REDIRECT = 'https://app.bench.example/callback';
/** Refresh-token chains per signed-in account: a slice cut mid-flight loses a chain (its answer unread). */
const CHAINS_PER_ACCOUNT = 1;
/** Connections for token refreshes (each a signed ID token and a few record writes). */
const REFRESH_CONNECTIONS = 8;

/**
 * A relying party registered by RFC 7591 and refresh tokens of `jars`' accounts, each got as a stock
 * client gets one: the authorization request with PKCE S256, the consent page's approval, the code
 * redeemed at the token endpoint. Each chain is used by one request at a time and replaced by the
 * rotated token of its answer (a refresh token is single-use: a reused one revokes the grant).
 */
async function refreshChains(url: string, jars: Jar[]): Promise<{ basic: string; tokens: string[] }> {
  const registered = await fetch(url + PATHS.register, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_REGISTRATION_TOKEN}` },
    body: JSON.stringify({
      client_name: 'Bench relying party',
      redirect_uris: [RP_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  });
  const client = (await registered.json()) as { client_id?: string; client_secret?: string };
  if (!client.client_id || !client.client_secret)
    throw new Error(`client registration answered ${registered.status} ${JSON.stringify(client)}`);
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
  const chain = async (signedIn: Jar): Promise<string> => {
    const jar: Jar = new Map(signedIn);
    const verifier = randomBytes(32).toString('base64url');
    let next = `${PATHS.authorize}?${new URLSearchParams({
      client_id: client.client_id as string,
      redirect_uri: RP_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('hex'),
    })}`;
    let code: string | null = null;
    for (let step = 0; step < 10 && !code; step++) {
      const response = await fetch(url + next, {
        redirect: 'manual',
        headers: { cookie: cookieHeader(jar) },
      });
      absorb(jar, response);
      const body = await response.text();
      const location = response.headers.get('location');
      if (!location) throw new Error(`${next} answered ${response.status} ${body.slice(0, 300)}`);
      const to = new URL(location, 'http://localhost:3000');
      if (to.href.startsWith(RP_REDIRECT)) code = to.searchParams.get('code');
      else if (to.pathname === '/authorization') {
        const decided = await fetch(url + PATHS.consent, {
          method: 'POST',
          headers: postHeaders(jar),
          body: form({ interaction: to.searchParams.get('interaction') ?? '', approve: 1, scope: '' }),
        });
        absorb(jar, decided);
        const answer = (await decided.json()) as { status_code?: number; data?: { redirect_url?: string } };
        if (answer.status_code !== 0 || !answer.data?.redirect_url)
          throw new Error(`the consent answered ${JSON.stringify(answer).slice(0, 300)}`);
        const back = new URL(answer.data.redirect_url, 'http://localhost:3000');
        next = back.pathname + back.search;
      } else next = to.pathname + to.search;
    }
    if (!code) throw new Error('the authorization request gave no code');
    const redeemed = await fetch(url + PATHS.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: RP_REDIRECT,
        code_verifier: verifier,
      }),
    });
    const tokens = (await redeemed.json()) as { refresh_token?: string };
    if (!tokens.refresh_token)
      throw new Error(`the code redeemed without a refresh token: ${JSON.stringify(tokens)}`);
    return tokens.refresh_token;
  };
  const owners = jars.flatMap((jar) => Array.from({ length: CHAINS_PER_ACCOUNT }, () => jar));
  return { basic, tokens: await pool(owners, 8, chain) };
}

/** The refresh_token grant under load: each request takes a chain's token, its answer gives the next. */
function refreshCase(url: string, chains: { basic: string; tokens: string[] }): LoadCase {
  const ready = chains.tokens;
  return {
    url,
    connections: REFRESH_CONNECTIONS,
    requests: [
      {
        method: 'POST',
        path: PATHS.token,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: chains.basic },
        setupRequest: (request) => {
          const token = ready.shift();
          if (!token) throw new Error('every refresh-token chain is spent');
          return { ...request, body: form({ grant_type: 'refresh_token', refresh_token: token }) };
        },
        onResponse: (_status, body) => {
          const token = /"refresh_token":"([^"]+)"/.exec(body)?.[1];
          if (token) ready.push(token);
        },
      },
    ],
    verify: (body) => body.includes('"refresh_token":"') && body.includes('"id_token":"'),
  };
}

interface Portico {
  size: number;
  /** The repeatable cases, to be aimed at another address (the proxy in front of several servers). */
  cases: { session: LoadCase; password: LoadCase };
  session: Contender;
  /** The session check of an organisation-identity session (issue 12: within 10 % of a personal one). */
  identitySession: Contender;
  password: Contender;
  sendCode: Contender;
  smsLogin: Contender;
  /** The authorization server's refresh_token grant, rotating one chain per request. */
  refresh: Contender;
}

/** Signs SESSION_ACCOUNTS accounts in (each its own browser) and builds the contenders for one server. */
async function portico(target: Target, size: number, system = 'Portico'): Promise<Portico> {
  const url = target.url;
  const accounts = spread(size, SESSION_ACCOUNTS);
  const browsers = await pool(accounts, 8, async (i) => {
    const jar = await anonymous(url);
    await post(url, PATHS.login, jar, { email: emailOf(i), password: SEED_PASSWORD });
    if (!jar.has('sessionid')) throw new Error('sign-in set no session cookie');
    return jar;
  });
  const anon = await anonymous(url);
  // Other accounts, signed in the same way, whose sessions become organisation-identity sessions.
  const members = accounts.map((i) => (i + 1) % size);
  const memberBrowsers = await pool(members, 8, async (i) => {
    const jar = await anonymous(url);
    await post(url, PATHS.login, jar, { email: emailOf(i), password: SEED_PASSWORD });
    if (!jar.has('sessionid')) throw new Error('sign-in set no session cookie');
    return jar;
  });
  await target.call('identities', { indices: members });

  // Session check: the load cycles through the signed-in browsers' cookies (session + its CSRF cookie).
  const sessionCase: LoadCase = {
    url,
    connections: READ_CONNECTIONS,
    requests: browsers.map((jar) => ({
      method: 'GET',
      path: PATHS.info,
      headers: { cookie: cookieHeader(jar) },
    })),
    verify: (body) => webOk(body) && body.includes('"user_id"'),
  };
  const session = loadContender(system, 'session check (account/info)', label(size), sessionCase);
  const identitySession = loadContender(system, 'session check, organisation identity', label(size), {
    url,
    connections: READ_CONNECTIONS,
    requests: memberBrowsers.map((jar) => ({
      method: 'GET',
      path: PATHS.info,
      headers: { cookie: cookieHeader(jar) },
    })),
    verify: (body) => webOk(body) && body.includes('"org"') && body.includes('member:read'),
  });
  // Password sign-in of the same accounts from one signed-out browser, round robin.
  const passwordCase: LoadCase = {
    url,
    connections: LOGIN_CONNECTIONS,
    requests: accounts.map((i) => ({
      method: 'POST',
      path: PATHS.login,
      headers: postHeaders(anon),
      body: form({ email: emailOf(i), password: SEED_PASSWORD }),
    })),
    verify: webOk,
  };
  const password = loadContender(system, 'password login (argon2id)', label(size), passwordCase);

  // Code sign-in: each slice sends CODE_ACCOUNTS codes (measured), reads them from the outbox (not
  // measured), and the paired login slice redeems them (measured). Warm-up on other accounts.
  const mobiles = Array.from({ length: CODE_ACCOUNTS }, (_, j) =>
    mobileOf(2 * Math.floor((j * size) / (2 * CODE_ACCOUNTS))),
  );
  const warmMobiles = Array.from({ length: WARM_CODE_ACCOUNTS }, (_, j) => mobileOf(2 * j + 1));
  let issued: Code[] = [];
  const sendCode = contender(system, 'send code (SMS to dev outbox)', label(size), {
    warm: async () => smsLogins(url, anon, (await sendCodes(url, anon, warmMobiles)).codes),
    slice: () => sendOnly(url, anon, mobiles),
    settle: async () => {
      issued = await readCodes(url, mobiles);
    },
  });
  const smsLogin = contender(system, 'SMS code login', label(size), {
    warm: async () => {},
    slice: () => smsLogins(url, anon, issued),
  });
  // The refresh chains are made when the case is first warmed: modes that do not measure it skip them.
  let chains: { basic: string; tokens: string[] } | undefined;
  const refreshLoad = async (seconds: number) => {
    chains ??= await refreshChains(url, browsers);
    return load({ ...refreshCase(url, chains), seconds });
  };
  const refresh = contender(system, 'token refresh (refresh_token grant)', label(size), {
    warm: () => refreshLoad(WARMUP_SECONDS),
    slice: () => refreshLoad(SLICE_SECONDS),
  });
  return {
    size,
    cases: { session: sessionCase, password: passwordCase },
    refresh,
    session,
    identitySession,
    password,
    sendCode,
    smsLogin,
  };
}

// ---------------------------------------------------------------- loads beside a measured case

/**
 * `base` measured while `side` runs on the same server for the same slice (warm-up included): the side
 * load's samples are kept for the report. The side load must be rated (autocannon's overallRate): a side
 * load without a rate only measures that one event loop shares its time between two request streams.
 */
function beside(
  base: Contender,
  name: string,
  side: (seconds: number) => Promise<Sample>,
): { contender: Contender; side: Sample[] } {
  const samples: Sample[] = [];
  const contender: Contender = {
    system: base.system,
    case: `${base.case}, ${name}`,
    accounts: base.accounts,
    samples: [],
    warm: async () => {
      await Promise.all([side(WARMUP_SECONDS), base.warm()]);
    },
    slice: async () => {
      const [sample, other] = await Promise.all([base.slice(), side(SLICE_SECONDS)]);
      samples.push(other);
      return sample;
    },
  };
  return { contender, side: samples };
}

// ---------------------------------------------------------------- the puzzle flood (issue 10)

/**
 * A measured case run beside an unauthenticated flood of POST /vc/challenge from one signed-out
 * browser: every flood request asks for a fresh puzzle render (the per-address caps are lifted in the
 * bench server, so the render pool itself is what holds).
 */
async function underFlood(
  target: Target,
  base: Contender,
): Promise<{ contender: Contender; flood: Sample[]; answers: FloodAnswers }> {
  const url = target.url;
  const jar = await anonymous(url);
  const answers: FloodAnswers = { puzzles: 0, busy: 0, other: 0 };
  const { ids } = await target.call<{ ids: string[] }>('challenges', { count: FLOOD_CHALLENGES });
  let next = 0;
  const flood = (seconds: number) =>
    load({
      url,
      connections: FLOOD_CONNECTIONS,
      overallRate: FLOOD_RATE,
      seconds,
      requests: [
        {
          method: 'POST',
          path: PATHS.puzzle,
          headers: postHeaders(jar),
          setupRequest: (request) => ({
            ...request,
            body: form({ challenge_id: ids[next++ % ids.length] as string }),
          }),
        },
      ],
      // Drawn, refused as busy (429) or spent (5 per id): all answers the flood may get.
      verify: (body) => {
        if (body.startsWith('{"message":"success"')) answers.puzzles++;
        else if (body.includes(`"error_code":${CHALLENGE_BUSY}`)) answers.busy++;
        else answers.other++;
        return body.startsWith('{"message":');
      },
    });
  const { contender, side } = beside(base, 'under a puzzle flood', flood);
  return { contender, flood: side, answers };
}

/** What the flood got back, warm-ups included: puzzles, CHALLENGE_BUSY, anything else (a spent id). */
interface FloodAnswers {
  puzzles: number;
  busy: number;
  other: number;
}

/** Render counts per kind and the mean wall time of one, as the server's pool reports them. */
type RenderStats = Record<string, { count: number; meanMs: number }>;

interface FloodRun {
  plainSession: Contender;
  floodSession: Contender;
  plainPassword: Contender;
  floodPassword: Contender;
  /** The flood's own samples, both pairs. */
  flood: Sample[];
  answers: FloodAnswers;
  rendersBefore: RenderStats;
  rendersAfter: RenderStats;
}

/**
 * The session check and password login of `big`, each with and without the puzzle flood, each pair
 * interleaved on its own (the full run and `BENCH_ONLY=puzzle-flood` both measure it here).
 */
async function measureFlood(target: Target, big: Portico): Promise<FloodRun> {
  const plainSession = again(big.session);
  const plainPassword = again(big.password);
  const floodSession = await underFlood(target, plainSession);
  const floodPassword = await underFlood(target, plainPassword);
  const rendersBefore = await target.call<RenderStats>('renders');
  await interleave([plainSession, floodSession.contender]);
  await interleave([plainPassword, floodPassword.contender]);
  const rendersAfter = await target.call<RenderStats>('renders');
  return {
    plainSession,
    floodSession: floodSession.contender,
    plainPassword,
    floodPassword: floodPassword.contender,
    flood: [...floodSession.flood, ...floodPassword.flood],
    answers: {
      puzzles: floodSession.answers.puzzles + floodPassword.answers.puzzles,
      busy: floodSession.answers.busy + floodPassword.answers.busy,
      other: floodSession.answers.other + floodPassword.answers.other,
    },
    rendersBefore,
    rendersAfter,
  };
}

/** The flood's report: rates and medians with and without it against the 10 % target, and the renders. */
function floodReport(run: FloodRun): string[] {
  const lines: string[] = [];
  const floodTotal = run.flood.reduce((a, f) => a + f.latencies.length, 0);
  const floodSeconds = run.flood.reduce((a, f) => a + f.seconds, 0);
  const count = (stats: RenderStats) => Object.values(stats).reduce((a, r) => a + r.count, 0);
  lines.push(
    `| under a puzzle flood (${FLOOD_RATE}/s on POST /vc/challenge, ${FLOOD_CONNECTIONS} connections) | without | with | ratio | |`,
  );
  lines.push('|---|---:|---:|---:|---|');
  for (const [name, plain, flooded] of [
    ['session check, req/s', run.plainSession, run.floodSession],
    ['password login, per s', run.plainPassword, run.floodPassword],
  ] as const) {
    const r = rps(flooded) / rps(plain);
    lines.push(
      `| ${name} | ${rps(plain).toFixed(1)} | ${rps(flooded).toFixed(1)} | ${pct(r)} | ${check(r >= 0.9)} |`,
    );
  }
  for (const [name, plain, flooded] of [
    ['session check, p50 ms', run.plainSession, run.floodSession],
    ['password login, p50 ms', run.plainPassword, run.floodPassword],
  ] as const) {
    const a = (plain.result as Figures).p50;
    const b = (flooded.result as Figures).p50;
    lines.push(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${pct(b / a)} | ${check(b <= a * 1.1)} |`);
  }
  lines.push('');
  lines.push(
    `The flood sent ${floodTotal} puzzle requests in ${floodSeconds.toFixed(1)} s (${(floodTotal / Math.max(1, floodSeconds)).toFixed(0)}/s); the server rendered ${count(run.rendersAfter) - count(run.rendersBefore)} puzzles meanwhile (one render lane). Render cost, mean wall time of one render: ${Object.entries(
      run.rendersAfter,
    )
      .map(([kind, r]) => `${kind} ${r.meanMs.toFixed(1)} ms`)
      .join(
        ', ',
      )}. Its answers, warm-ups included: ${run.answers.puzzles} puzzles, ${run.answers.busy} CHALLENGE_BUSY, ${run.answers.other} other (spent ids).`,
  );
  return lines;
}

// ---------------------------------------------------------------- the monitoring collector (issue 18)

/**
 * One batch as @portico/monitor sends it from a sign-in page: 20 events of the kinds a visit produces
 * (page view, SDK calls, resource timings, a web vital, funnel steps, one error), each batch its own
 * session, posted as text/plain without a cookie, the way sendBeacon posts it.
 */
function monitorBatch(n: number): string {
  const now = Date.now();
  const event = (fields: Record<string, unknown>) => ({ time: now, page: '/login', rate: 1, ...fields });
  const events = [
    event({ kind: 'session_start' }),
    event({ kind: 'page_view', navigation: 'load', from: '' }),
    event({ kind: 'funnel', step: 'method_shown', method: 'mobile_code', app: '1128', flavour: 'web' }),
    event({
      kind: 'web_vital',
      name: 'LCP',
      value: 900 + (n % 700),
      rating: 'good',
      navigation_type: 'navigate',
      rate: 0.1,
    }),
    event({
      kind: 'js_error',
      source: 'error',
      name: 'TypeError',
      message: 'x is undefined',
      stack: 'at f (/assets/login.js:1:200)',
      fingerprint: 'bench',
    }),
    ...Array.from({ length: 8 }, (_, i) =>
      event({
        kind: 'resource',
        tag: 'script',
        url: `/assets/chunk-${i}.js`,
        initiator: 'script',
        duration_ms: 20 + i,
        transfer_bytes: 4000 + i,
        cached: i % 2 === 0,
        rate: 0.1,
      }),
    ),
    ...Array.from({ length: 5 }, (_, i) =>
      event({
        kind: 'http',
        method: 'POST',
        path: PATHS.sendCode,
        status: 200,
        duration_ms: 40 + i,
        error_code: 0,
        log_id: '',
        rate: 0.01,
      }),
    ),
    event({ kind: 'funnel', step: 'code_sent', method: 'mobile_code', app: '1128', flavour: 'web' }),
    event({ kind: 'funnel', step: 'signed_in', method: 'mobile_code', app: '1128', flavour: 'web' }),
  ];
  return JSON.stringify({
    v: 1,
    session: `bench${String(n).padStart(27, '0')}`,
    app: '1128',
    flavour: 'web',
    seq: 0,
    sent_at: now,
    events,
  });
}

/**
 * The server's CPU per collector batch, from its own accounting (process.threadCpuUsage): the collector
 * alone at its steady rate for one slice, less an idle slice of the same length. A rate read beside
 * another load moves with whatever else the machine runs; CPU time per batch much less so.
 */
async function collectorCost(target: Target): Promise<string> {
  type Cpu = { eventLoop: number; process: number };
  const during = async (work: Promise<unknown>) => {
    const before = await target.call<Cpu>('cpu');
    await work;
    // The write-behind writes the last batches up to 250 ms after they came.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await target.call<Cpu>('cpu');
    return { eventLoop: after.eventLoop - before.eventLoop, process: after.process - before.process };
  };
  const seconds = ROUNDS * SLICE_SECONDS;
  const idle = await during(new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
  let batches = 0;
  const busy = await during(
    collectorLoad(
      target.url,
      COLLECTOR_RATE,
    )(seconds).then((sample) => {
      batches = sample.latencies.length;
    }),
  );
  const perBatch = (key: keyof Cpu) => (busy[key] - idle[key]) / Math.max(1, batches);
  return (
    `${batches} batches in ${seconds} s; event loop ${perBatch('eventLoop').toFixed(0)} µs a batch ` +
    `(${((perBatch('eventLoop') * COLLECTOR_RATE) / 10_000).toFixed(1)} % of a core at ${COLLECTOR_RATE}/s), ` +
    `whole process ${perBatch('process').toFixed(0)} µs a batch`
  );
}

/** POST /monitor/batch/ load: as fast as it goes (no rate), or at `rate` batches per second. */
function collectorLoad(url: string, rate?: number) {
  // The bodies are built before the measurement: stringifying a 4 KB batch per request ran on the
  // same event loop as the session check's load generator and was charged to the session check.
  const bodies = Array.from({ length: COLLECTOR_BODIES }, (_, n) => monitorBatch(n));
  let next = 0;
  return (seconds: number) =>
    load({
      url,
      connections: COLLECTOR_CONNECTIONS,
      seconds,
      ...(rate ? { overallRate: rate } : {}),
      requests: [
        {
          method: 'POST',
          path: PATHS.monitorBatch,
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          setupRequest: (request) => ({ ...request, body: bodies[next++ % COLLECTOR_BODIES] }),
        },
      ],
      verify: (body) =>
        body.startsWith('{"message":"success"') && body.includes(`"accepted":${BATCH_EVENTS}`),
    });
}

// ---------------------------------------------------------------- Better Auth

async function betterAuth(target: Target): Promise<{ session: Contender; signIn: Contender }> {
  const url = target.url;
  const json = { 'content-type': 'application/json', origin: url };
  const users = Array.from({ length: BA_ACCOUNTS }, (_, i) => ({
    email: `ba${i}@bench.example`,
    password: SEED_PASSWORD,
    name: `ba${i}`,
  }));
  const cookies = await pool(users, 4, async (user) => {
    const response = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(user),
    });
    const jar: Jar = new Map();
    absorb(jar, response);
    const body = await response.text();
    if (response.status !== 200 || !jar.size)
      throw new Error(`Better Auth sign-up: ${response.status} ${body}`);
    return cookieHeader(jar);
  });
  const session = loadContender('Better Auth', 'get-session', label(BA_ACCOUNTS), {
    url,
    connections: READ_CONNECTIONS,
    requests: cookies.map((cookie) => ({
      method: 'GET',
      path: '/api/auth/get-session',
      headers: { cookie },
    })),
    verify: (body) => body.startsWith('{"session":{'),
  });
  const signIn = loadContender('Better Auth', 'e-mail/password sign-in (scrypt)', label(BA_ACCOUNTS), {
    url,
    connections: LOGIN_CONNECTIONS,
    requests: users.map(({ email, password }) => ({
      method: 'POST',
      path: '/api/auth/sign-in/email',
      headers: json,
      body: JSON.stringify({ email, password }),
    })),
    verify: (body) => body.includes('"token":"'),
  });
  return { session, signIn };
}

// ---------------------------------------------------------------- the run

const cpu = cpus();
const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const load1 = () => loadavg()[0]?.toFixed(1) ?? '?';
const loadAtStart = load1();
log(`portico bench on ${machine}; load average ${loadAtStart}; 127.0.0.1 only`);

const targets: Target[] = [];
const start = async (
  name: string,
  file: string,
  env: Record<string, string> = {},
  execArgv: string[] = [],
  wrapper?: Parameters<typeof Target.start>[4],
) => {
  const target = await Target.start(name, file, env, execArgv, wrapper);
  targets.push(target);
  return target;
};

/** A measured case's requests per second. */
const rps = (c: Contender) => (c.result as Figures).rps;

/** The bare Fastify route: the floor the reads are compared with. */
const floorLoad = (url: string): LoadCase => ({
  url,
  connections: READ_CONNECTIONS,
  requests: [{ method: 'GET', path: '/' }],
  verify: (body) => body === '{"hello":"world"}',
});
const floorCase = (url: string) => loadContender('Fastify', 'bare route GET /', '', floorLoad(url));

/** Raw argon2id in its own process, `concurrency` hashes in flight: the ceiling of a password login. */
const argonCase = (argon2: Target, concurrency: number) =>
  contender('raw argon2id', concurrency === 1 ? 'hash, 1 at a time' : `hash, ${concurrency} in flight`, '', {
    warm: async () => {},
    slice: () => argon2.call<Sample>('measure', { concurrency, ms: SLICE_SECONDS * 1000 }),
  });

// ---------------------------------------------------------------- CPU per request (the sizing sheet)

/** What one measured slice cost, in µs of CPU: the server processes, the shared backends, the proxy. */
interface Cost {
  requests: number;
  seconds: number;
  server: number;
  backends: number;
  proxy: number;
}
type Costed = Contender & { costs: Cost[] };
const cpuOf = async (t: Target) => (await t.call<{ process: number }>('cpu')).process;
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

/**
 * The contender with each slice's CPU read from the processes' own accounting (process.cpuUsage of
 * every server process, all its threads: argon2 and SQLite included) and, on PostgreSQL + Redis, from
 * /proc for the backends. A rate on two shared cores moves with whatever else runs; CPU per request is
 * what a sizing sheet can multiply.
 */
function costed(c: Contender, servers: Target[], backends: boolean, proxy?: Target): Costed {
  const costs: Cost[] = [];
  return {
    ...c,
    costs,
    slice: async () => {
      const serverBefore = await Promise.all(servers.map(cpuOf));
      const proxyBefore = proxy ? await cpuOf(proxy) : 0;
      const backendsBefore = backends ? backendMicros() : 0;
      const t0 = performance.now();
      const sample = await c.slice();
      const seconds = (performance.now() - t0) / 1000;
      const backendsAfter = backends ? backendMicros() : 0;
      const serverAfter = await Promise.all(servers.map(cpuOf));
      const proxyAfter = proxy ? await cpuOf(proxy) : 0;
      costs.push({
        requests: sample.latencies.length,
        seconds,
        server: sum(serverAfter) - sum(serverBefore),
        backends: backendsAfter - backendsBefore,
        proxy: proxyAfter - proxyBefore,
      });
      return sample;
    },
  };
}

/** The backends' CPU per second while nothing of this run loads them (other people's work), in µs. */
async function backendsIdle(seconds: number): Promise<number> {
  const before = backendMicros();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (backendMicros() - before) / seconds;
}

/** µs of CPU per request: the server processes', the backends' (less their idle share), the proxy's. */
function perRequest(c: Costed, idlePerSecond: number) {
  const requests = sum(c.costs.map((x) => x.requests));
  const seconds = sum(c.costs.map((x) => x.seconds));
  const backends = Math.max(0, sum(c.costs.map((x) => x.backends)) - idlePerSecond * seconds);
  return {
    server: sum(c.costs.map((x) => x.server)) / requests,
    backends: backends / requests,
    proxy: sum(c.costs.map((x) => x.proxy)) / requests,
  };
}

/** Requests one core answers: 1 s of CPU over the µs a request costs. */
const perCore = (micros: number) => (micros > 0 ? 1e6 / micros : Number.NaN);
const fixed = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** A measured pair and its target: the second case's rate against the first's. */
function pairReport(
  [first, second]: [Contender, Contender],
  target: string,
  bound: number,
): { measured: Contender[]; notes: Map<Contender, string>; report: string[] } {
  const ratio = rps(second) / rps(first);
  return {
    measured: [first, second],
    notes: new Map([[second, `${pct(ratio)} of the first`]]),
    report: [
      `| target | measured | |`,
      '|---|---|---|',
      `| ${target} | ${pct(ratio)} (${rps(second).toFixed(0)} / ${rps(first).toFixed(0)} req/s) | ${check(ratio >= bound)} |`,
    ],
  };
}

/**
 * `BENCH_ONLY=<case> pnpm bench`: one case of the full run on the 100,000-account server, interleaved as
 * there (well under a minute on a quiet machine); prints its rows and its target, then exits.
 * - `identity-session`: the session check of an organisation-identity session against a personal one
 *   (issue 12: within 10 %).
 * - `collector`: the session check alone and beside the monitoring collector at its steady rate
 *   (issue 18: at least 95 % of alone).
 * - `puzzle-flood`: the session check and password login, each with and without the puzzle flood
 *   (issue 10: each within 10 %).
 * - `sign-in`: the session check against the floor and Better Auth's get-session, and password login
 *   against raw argon2id and Better Auth's sign-in, interleaved as in the full run (the headline
 *   targets without the rest; about two minutes).
 * - `challenge`: the challenge's proof of work, a script's CPU-seconds and a person's seconds
 *   (src/challenge-cost.ts; no server, about a minute).
 * - `passkey`: a passkey sign-in's verification against raw P-256 signature verification, in one
 *   process (src/passkey-verify.ts; no server, seconds).
 */
const ONLY: Record<
  string,
  (
    big: Portico,
    target: Target,
  ) => Promise<{ measured: Contender[]; notes: Map<Contender, string>; report: string[] }>
> = {
  'identity-session': async (big) => {
    log('reads: a personal and an organisation-identity session check, interleaved');
    await interleave([big.session, big.identitySession]);
    return pairReport(
      [big.session, big.identitySession],
      "identity session check within 10 % of a personal session's",
      0.9,
    );
  },
  collector: async (big, target) => {
    log(`the session check alone and beside the collector at ${COLLECTOR_RATE} batches/s, interleaved`);
    const besideCollector = beside(
      big.session,
      `beside the collector at ${COLLECTOR_RATE} batches/s`,
      collectorLoad(target.url, COLLECTOR_RATE),
    );
    await interleave([big.session, besideCollector.contender]);
    log(`the collector's own cost: ${await collectorCost(target)}`);
    return pairReport(
      [big.session, besideCollector.contender],
      'session check beside the collector ≥ 95 % of alone',
      0.95,
    );
  },
  'sign-in': async (big) => {
    log('starting the floor, raw argon2id and Better Auth');
    const floor = floorCase((await start('floor', 'floor.ts')).url);
    const raw = argonCase(await start('argon2', 'argon2.ts'), LOGIN_CONNECTIONS);
    const ba = await betterAuth(await start('better-auth', 'better-auth.ts'));
    log('reads: the floor, the session check and Better Auth get-session, interleaved');
    await interleave([floor, big.session, ba.session]);
    log('sign-ins: raw argon2id, password login and Better Auth sign-in, interleaved');
    await interleave([raw, big.password, ba.signIn]);
    const session = rps(big.session) / rps(floor);
    const vsBa = rps(big.session) / rps(ba.session);
    const password = rps(big.password) / rps(raw);
    return {
      measured: [floor, big.session, ba.session, raw, big.password, ba.signIn],
      notes: new Map([
        [big.session, `${pct(session)} of floor, ${vsBa.toFixed(1)}× Better Auth`],
        [big.password, `${pct(password)} of raw argon2id`],
        [ba.signIn, `${(rps(big.password) / rps(ba.signIn)).toFixed(1)}× slower than Portico's`],
      ]),
      report: [
        '| target | measured | |',
        '|---|---|---|',
        ...targetRows({
          session: rps(big.session),
          floor: rps(floor),
          betterAuth: rps(ba.session),
          password: rps(big.password),
          raw: rps(raw),
        }),
      ],
    };
  },
  refresh: async (big) => {
    log('the session check and the token refresh, interleaved');
    await interleave([big.session, big.refresh]);
    return {
      measured: [big.session, big.refresh],
      notes: new Map([[big.refresh, `${pct(rps(big.refresh) / rps(big.session))} of the session check`]]),
      report: [],
    };
  },
  'puzzle-flood': async (big, target) => {
    log('the puzzle flood: session check and password login with and without it, interleaved');
    const run = await measureFlood(target, big);
    return {
      measured: [run.plainSession, run.floodSession, run.plainPassword, run.floodPassword],
      notes: new Map([
        [run.floodSession, `${pct(rps(run.floodSession) / rps(run.plainSession))} of without`],
        [run.floodPassword, `${pct(rps(run.floodPassword) / rps(run.plainPassword))} of without`],
      ]),
      report: floodReport(run),
    };
  },
};
/** The request path's targets, the same rows in the sign-in case and in the full run. */
function targetRows(rates: {
  session: number;
  floor: number;
  betterAuth: number;
  password: number;
  raw: number;
}) {
  const { session, floor, betterAuth, password, raw } = rates;
  return [
    `| session check ≥ 50 % of the bare route | ${pct(session / floor)} (${session.toFixed(0)} / ${floor.toFixed(0)} req/s) | ${check(session / floor >= 0.5)} |`,
    `| session check ≥ 20× Better Auth get-session | ${(session / betterAuth).toFixed(1)}× (${session.toFixed(0)} / ${betterAuth.toFixed(0)} req/s) | ${check(session / betterAuth >= 20)} |`,
    `| password login ≥ 90 % of raw argon2id, ${LOGIN_CONNECTIONS} in flight | ${pct(password / raw)} (${password.toFixed(1)} / ${raw.toFixed(1)} per s) | ${check(password / raw >= 0.9)} |`,
  ];
}
const only = process.env.BENCH_ONLY;
/** BENCH_ONLY=sizing: the full run's backends, growth and several servers, without the per-process extras. */
const sizingOnly = only === 'sizing';
if (only === 'passkey') {
  log('passkey sign-in verification against raw P-256, alternating slices (no server)');
  process.stdout.write(`\n${passkeyReport(await passkeyVerifyCost(log)).join('\n')}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}
if (only === 'challenge') {
  process.stdout.write(`\n${(await challengeCost()).join('\n')}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}
if (only === 'session-cost' && process.env.BENCH_COUNT) {
  // Instructions per request instead of requests per second (src/instructions.ts): every target under
  // callgrind, BENCH_COUNT counted requests each in BENCH_ROUNDS (default 3) interleaved rounds, the
  // first after BENCH_WARM (default as many) uncounted; the median round is the figure (a round that met
  // a major garbage collection or a recompilation reads high). Set BENCH_MINUTES: Valgrind runs the targets many times slower.
  const n = Number(process.env.BENCH_COUNT);
  const warm = Number(process.env.BENCH_WARM ?? n);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'portico-bench-callgrind-'));
  const wrapper = underCallgrind(dir);
  const rows: [string, string, number[]][] = [];
  try {
    const floorTarget = await start('floor', 'floor.ts', {}, [], wrapper);
    const measured: [string, string, Target, LoadCase][] = [
      ['Fastify', 'bare route GET /', floorTarget, floorLoad(floorTarget.url)],
    ];
    const servers: [string, Record<string, string>][] = [['this build', {}]];
    if (process.env.BENCH_BEFORE) servers.push(['before', { BENCH_SERVER: process.env.BENCH_BEFORE }]);
    for (const [name, env] of servers) {
      const target = await start(`portico-${name}`, 'portico.ts', env, [], wrapper);
      await target.call('seed', { total: SMALL });
      const server = await portico(target, SMALL, `Portico (${name})`);
      measured.push([`Portico (${name})`, 'session check (account/info)', target, server.cases.session]);
    }
    for (const [system, name] of measured) rows.push([system, name, []]);
    for (let round = 1; round <= rounds; round++)
      for (const [i, [system, , target, c]] of measured.entries()) {
        log(`counting ${system}, round ${round}: ${n} requests`);
        rows[i]![2].push(await instructionsPerRequest(target, c, { n, warm: round === 1 ? warm : 0, dir }));
      }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const floorIr = median(rows[0]![2]);
  const lines = [
    `Counted ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine} under callgrind, ${n} requests per round, the first after ${warm} uncounted; load average ${loadAtStart} at the start and ${load1()} at the end (the counts do not depend on it).`,
    '',
    `| system | case | instructions per request, each round | median | the bare route’s share |`,
    '|---|---|---|---:|---:|',
    ...rows.map(
      ([system, name, irs]) =>
        `| ${system} | ${name} | ${irs.map((ir) => Math.round(ir).toLocaleString('en')).join(', ')} | ${Math.round(median(irs)).toLocaleString('en')} | ${pct(floorIr / median(irs))} |`,
    ),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
  process.exit(0);
}

if (only === 'session-cost') {
  // The session check against the bare route and password sign-in against raw argon2id, and both
  // against an earlier build of the server (BENCH_BEFORE=<a copy of its apps/passport-server/dist>) in
  // the same interleave: "within 5 % of the previous commit in the same run". BENCH_REPEAT=<n> runs the
  // pair of interleaves n times, alternating, and reports each repetition's after/before and their
  // median. With BENCH_PROFILE=1 every target is profiled over the reads' window (V8's sampling
  // profiler) and the report ends with where each one's CPU went. A profiled process is slower: read
  // the ratios from a run without it.
  const profileDir = process.env.BENCH_PROFILE
    ? mkdtempSync(join(tmpdir(), 'portico-bench-prof-'))
    : undefined;
  const repeat = Number(process.env.BENCH_REPEAT ?? 1);
  let lines: string[] = [];
  const profiled: [string, Target][] = [];
  try {
    const floorTarget = await start('floor', 'floor.ts');
    profiled.push(['floor', floorTarget]);
    const argonTarget = await start('argon2', 'argon2.ts');
    const raw = costed(argonCase(argonTarget, LOGIN_CONNECTIONS), [argonTarget], false);
    const floor = floorCase(floorTarget.url);
    const servers: [string, Record<string, string>][] = [['this build', {}]];
    if (process.env.BENCH_BEFORE) servers.push(['before', { BENCH_SERVER: process.env.BENCH_BEFORE }]);
    const sites: Portico[] = [];
    for (const [name, env] of servers) {
      const target = await start(`portico-${name}`, 'portico.ts', env);
      await target.call('seed', { total: SMALL });
      const site = await portico(target, SMALL, `Portico (${name})`);
      // Password sign-in with its CPU per request: argon2id's share is raw argon2id's CPU per hash.
      sites.push({ ...site, password: costed(site.password, [target], false) });
      profiled.push([name, target]);
    }
    const rows: Contender[] = [];
    const notes = new Map<Contender, string>();
    const pairs: { session: number; password: number }[] = [];
    for (let r = 0; r < repeat; r++) {
      // Every other repetition starts with the other build, so neither always follows the floor.
      const order = r % 2 === 0 ? sites : [...sites].reverse();
      const floorNow = r === 0 ? floor : again(floor);
      const rawNow = r === 0 ? raw : again(raw);
      const sessions = order.map((x) => (r === 0 ? x.session : again(x.session)));
      const passwords = order.map((x) => (r === 0 ? x.password : again(x.password)));
      log(`repetition ${r + 1} of ${repeat}: the floor and the session checks, interleaved`);
      if (profileDir && r === 0) for (const [, t] of profiled) await t.call('profileStart');
      await interleave([floorNow, ...sessions]);
      if (profileDir && r === 0)
        for (const [name, t] of profiled) await t.call('profileStop', { dir: join(profileDir, name) });
      log(`repetition ${r + 1} of ${repeat}: raw argon2id and the password sign-ins, interleaved`);
      await interleave([rawNow, ...passwords]);
      rows.push(floorNow, ...sessions, rawNow, ...passwords);
      if (sites.length > 1) {
        const after = (cs: Contender[]) => cs.find((c) => c.system.includes('this build')) as Contender;
        const before = (cs: Contender[]) => cs.find((c) => c.system.includes('before')) as Contender;
        pairs.push({
          session: rps(after(sessions)) / rps(before(sessions)),
          password: rps(after(passwords)) / rps(before(passwords)),
        });
      }
      notes.set(floorNow, `repetition ${r + 1}`);
      for (const c of sessions) notes.set(c, `${pct(rps(c) / rps(floorNow))} of the bare route`);
      for (const c of passwords) notes.set(c, `${pct(rps(c) / rps(rawNow))} of raw argon2id`);
    }
    lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; load average ${loadAtStart} at the start and ${load1()} at the end${profileDir ? '; profiled' : ''}.`,
      '',
      '| system | case | per s | p50 ms | p99 ms | ratio | failed |',
      '|---|---|---:|---:|---:|---|---:|',
      ...rows.map((c) => {
        const f = c.result as Figures;
        return `| ${c.system} | ${c.case} | ${f.rps.toFixed(f.rps < 100 ? 1 : 0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${notes.get(c) ?? ''} | ${f.failures} |`;
      }),
    ];
    // CPU per password sign-in over every repetition (each build's process, all threads) against raw
    // argon2id's CPU per hash: what the sign-in spends beyond the hash, less moved by the machine's load
    // than a rate.
    const hash = perRequest(raw, 0).server;
    lines.push(
      '',
      `| CPU per password sign-in, every repetition | server µs/sign-in | raw argon2id µs/hash | beyond the hash |`,
      '|---|---:|---:|---:|',
      ...sites.map((x) => {
        const cpu = perRequest(x.password as Costed, 0).server;
        return `| ${x.password.system} | ${cpu.toFixed(0)} | ${hash.toFixed(0)} | ${(cpu - hash).toFixed(0)} µs (${pct(cpu / hash - 1)}) |`;
      }),
    );
    if (pairs.length) {
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
      const within = (x: number) => (x >= 0.95 ? 'within 5 %' : '**more than 5 % slower**');
      const sessionMedian = median(pairs.map((p) => p.session));
      const passwordMedian = median(pairs.map((p) => p.password));
      lines.push(
        '',
        '| this build against before, same interleave | each repetition | median | |',
        '|---|---|---:|---|',
        `| session check | ${pairs.map((p) => pct(p.session)).join(', ')} | ${pct(sessionMedian)} | ${within(sessionMedian)} |`,
        `| password sign-in | ${pairs.map((p) => pct(p.password)).join(', ')} | ${pct(passwordMedian)} | ${within(passwordMedian)} |`,
      );
    }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  if (profileDir)
    for (const [name] of profiled)
      lines.push('', `**${name}**`, '', ...summariseProfiles(join(profileDir, name)));
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (profileDir) log(`profiles kept in ${profileDir}`);
  process.exit(0);
}

if (only === 'seed') {
  // Seeding alone, at the large size (BENCH_SIZE), on PostgreSQL + Redis (BENCH_BACKENDS=sqlite,postgres
  // for both): the time, the database's size and the hot lookups' plans, then the schema is dropped.
  const backends = (process.env.BENCH_BACKENDS ?? 'postgres').split(',') as Backend[];
  const lines = [
    `Seeded ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; load average ${loadAtStart} at the start.`,
    '',
    '| backend | accounts | sessions | seeding s | accounts/s | database | per million accounts |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const planLines: string[] = [];
  try {
    for (const backend of backends) {
      const d = await deploy(backend, BIG[backend], start);
      const seeded = await d.main.call<{ seconds: number; users: number; sessions: number }>('seed', {
        total: BIG[backend],
      });
      const { bytes } = await d.main.call<{ bytes: number }>('size');
      log(`${BACKEND_NAME[backend]}: ${JSON.stringify(seeded)}, ${(bytes / 2 ** 20).toFixed(0)} MiB`);
      const plans = await d.main.call<Record<string, string>>('plans');
      for (const [name, plan] of Object.entries(plans)) log(`  query plan, ${name}: ${plan}`);
      lines.push(
        `| ${BACKEND_NAME[backend]} | ${label(seeded.users)} | ${label(seeded.sessions)} | ${seeded.seconds.toFixed(0)} | ${label(Math.round(seeded.users / seeded.seconds))} | ${(bytes / 2 ** 20).toFixed(0)} MiB | ${(((bytes / seeded.users) * 1e6) / 2 ** 20).toFixed(0)} MiB |`,
      );
      planLines.push(
        ...Object.entries(plans).map(([name, plan]) => `- ${BACKEND_NAME[backend]}, ${name}: ${plan}`),
      );
      await d.main.stop();
    }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
    await cleanUp();
  }
  lines.push(
    '',
    'Query plans of the hot lookups after seeding:',
    '',
    ...planLines,
    '',
    `Load average ${load1()} at the end.`,
  );
  process.stdout.write(`\n${lines.join('\n')}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

if (only && !sizingOnly) {
  const run = ONLY[only];
  if (!run)
    throw new Error(
      `BENCH_ONLY: one of ${[...Object.keys(ONLY), 'challenge', 'passkey', 'seed', 'session-cost', 'sizing'].join(', ')}`,
    );
  let lines: string[] = [];
  let measured: Contender[] = [];
  try {
    const size = ONLY_SIZE;
    const target = await start(`portico-${size}`, 'portico.ts');
    const seeded = await target.call<{ seconds: number; users: number }>('seed', { total: size });
    log(`Portico ${label(size)}: ${seeded.users} accounts, seeded in ${seeded.seconds.toFixed(1)} s`);
    const outcome = await run(await portico(target, size), target);
    measured = outcome.measured;
    lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ` +
        `load average ${loadAtStart} at the start and ${load1()} at the end (other work on the machine included).`,
      '',
      '| system | case | accounts | per s | p50 ms | p99 ms | ratio | failed |',
      '|---|---|---:|---:|---:|---:|---|---:|',
      ...measured.map((c) => {
        const f = c.result as Figures;
        return `| ${c.system} | ${c.case} | ${c.accounts} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${outcome.notes.get(c) ?? ''} | ${f.failures} |`;
      }),
      '',
      ...outcome.report,
    ];
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(measured.some((c) => (c.result?.failures ?? 0) > 0) ? 1 : 0);
}

/** The puzzle flood and the collector, measured on one (SQLite) server as before the sizing sheet. */
async function perProcessExtras(bigSqlite: Portico, bigTarget: Target) {
  log('the puzzle flood: session check and password login with and without it, interleaved');
  const flood = await measureFlood(bigTarget, bigSqlite);
  log('the monitoring collector: alone, then the session check beside it at a steady rate, interleaved');
  const collectAll = collectorLoad(bigTarget.url);
  const collector = contender(
    'Portico · SQLite',
    `monitoring collector, ${BATCH_EVENTS}-event batches`,
    label(BIG.sqlite),
    {
      warm: () => collectAll(WARMUP_SECONDS),
      slice: () => collectAll(SLICE_SECONDS),
    },
  );
  const quietSession = again(bigSqlite.session);
  const besideCollector = beside(
    quietSession,
    `beside the collector at ${COLLECTOR_RATE} batches/s`,
    collectorLoad(bigTarget.url, COLLECTOR_RATE),
  );
  await interleave([collector]);
  await interleave([quietSession, besideCollector.contender]);

  return { flood, collector, quietSession, besideCollector };
}

// ---------------------------------------------------------------- the full run

const all: Contender[] = [];
let report = '';
try {
  const floorTarget = await start('floor', 'floor.ts');
  const argon2 = await start('argon2', 'argon2.ts');
  const deployments = new Map<string, Deployment>();
  const dbBytes = new Map<string, number>();
  const key = (backend: Backend, size: number) => `${backend}-${size}`;
  // Started together (a server takes a while to start on a busy machine), then seeded one at a time.
  const deployed = await Promise.all(
    BACKENDS.flatMap((backend) => [SMALL, BIG[backend]].map((size) => deploy(backend, size, start))),
  );
  for (const backend of BACKENDS) {
    for (const size of [SMALL, BIG[backend]]) {
      const d = deployed.find((x) => x.backend === backend && x.size === size) as Deployment;
      const params = await d.main.call<{ memoryCost: number; timeCost: number; parallelism: number }>(
        'hashParams',
      );
      if (
        params.memoryCost !== ARGON2_OPTIONS.memoryCost ||
        params.timeCost !== ARGON2_OPTIONS.timeCost ||
        params.parallelism !== ARGON2_OPTIONS.parallelism
      ) {
        throw new Error(
          `the server hashes with ${JSON.stringify(params)}, not ${JSON.stringify(ARGON2_OPTIONS)}`,
        );
      }
      const seeded = await d.main.call<{ seconds: number; users: number; sessions: number }>('seed', {
        total: size,
      });
      const { bytes } = await d.main.call<{ bytes: number }>('size');
      dbBytes.set(key(backend, size), bytes);
      log(
        `Portico on ${BACKEND_NAME[backend]}, ${label(size)}: ${seeded.users} accounts, ${seeded.sessions} sessions, ` +
          `seeded in ${seeded.seconds.toFixed(1)} s; database ${(bytes / 2 ** 20).toFixed(0)} MiB`,
      );
      deployments.set(key(backend, size), d);
    }
  }
  const baTarget = await start('better-auth', 'better-auth.ts');

  const floor = floorCase(floorTarget.url);
  const sites = new Map<string, Portico>();
  for (const backend of BACKENDS)
    for (const size of [SMALL, BIG[backend]]) {
      const d = deployments.get(key(backend, size)) as Deployment;
      sites.set(key(backend, size), await portico(d.main, size, `Portico · ${BACKEND_NAME[backend]}`));
    }
  const site = (backend: Backend, big: boolean) =>
    sites.get(key(backend, big ? BIG[backend] : SMALL)) as Portico;
  const server = (backend: Backend, big: boolean) =>
    (deployments.get(key(backend, big ? BIG[backend] : SMALL)) as Deployment).main;
  // Every Portico case with its CPU per request, on each backend at each size.
  const cost = (backend: Backend, big: boolean, c: Contender) =>
    costed(c, [server(backend, big)], backend === 'postgres');
  type CaseName = 'session' | 'identitySession' | 'password' | 'sendCode' | 'smsLogin' | 'refresh';
  const measured = new Map<string, Costed>();
  const at = (backend: Backend, big: boolean, name: CaseName) => {
    const k = `${backend}-${big}-${name}`;
    let c = measured.get(k);
    if (!c) {
      c = cost(backend, big, site(backend, big)[name]);
      measured.set(k, c);
    }
    return c;
  };
  const both = (name: CaseName, big: boolean) => BACKENDS.map((b) => at(b, big, name));
  const ba = await betterAuth(baTarget);
  const rawSingle = argonCase(argon2, 1);
  // With its CPU per hash: a password sign-in's CPU beyond it is the sign-in's own work.
  const rawConcurrent = costed(argonCase(argon2, LOGIN_CONNECTIONS), [argon2], false);

  log(`backends' CPU while this run is idle: measuring for ${SLICE_SECONDS} s`);
  const idle = await backendsIdle(SLICE_SECONDS);
  log(`  ${(idle / 1e4).toFixed(1)} % of a core (other work on the shared services)`);

  log(
    'reads: the floor, the session checks on both backends and sizes, Better Auth get-session, interleaved',
  );
  await interleave([
    floor,
    ...both('session', false),
    ...both('session', true),
    ...both('identitySession', true),
    ba.session,
  ]);
  log('sign-ins: raw argon2id, password logins on both backends and sizes, Better Auth sign-in, interleaved');
  await interleave([
    rawConcurrent,
    ...both('password', false),
    ...both('password', true),
    ba.signIn,
    rawSingle,
  ]);
  log('code sign-in: send and redeem, interleaved over both backends and sizes');
  await interleave(
    BACKENDS.flatMap((b) => [
      [at(b, false, 'sendCode'), at(b, false, 'smsLogin')],
      [at(b, true, 'sendCode'), at(b, true, 'smsLogin')],
    ]),
  );

  log('token refresh (the refresh_token grant) on both backends and sizes, interleaved');
  await interleave([...both('refresh', false), ...both('refresh', true)]);

  // Several servers on PostgreSQL + Redis (the large size), behind a round-robin proxy on loopback.
  const shared = deployments.get(key('postgres', BIG.postgres)) as Deployment;
  const sharedSite = site('postgres', true);
  const processes = [shared.main];
  processes.push(
    ...(await Promise.all(
      Array.from({ length: Math.max(...SERVER_COUNTS) - 1 }, (_, i) =>
        start(`portico-postgres-${i + 2}`, 'portico.ts', shared.env),
      ),
    )),
  );
  const several: { count: number; session: Costed; password: Costed }[] = [];
  for (const count of SERVER_COUNTS) {
    const upstreams = processes.slice(0, count);
    const proxy = await start(`proxy-${count}`, 'proxy.ts', {
      BENCH_UPSTREAMS: upstreams.map((t) => t.port).join(','),
    });
    const via = (c: LoadCase, name: string) =>
      costed(
        loadContender(`Portico × ${count}`, name, label(BIG.postgres), { ...c, url: proxy.url }),
        upstreams,
        true,
        proxy,
      );
    several.push({
      count,
      session: via(sharedSite.cases.session, 'session check (account/info)'),
      password: via(sharedSite.cases.password, 'password login (argon2id)'),
    });
  }
  log(`several servers: ${SERVER_COUNTS.join(', ')} processes behind a round-robin proxy, interleaved`);
  await interleave(several.map((x) => x.session));
  await interleave(several.map((x) => x.password));

  // The per-process cases that do not depend on the backend: on the large SQLite server.
  const extras = sizingOnly
    ? undefined
    : await perProcessExtras(site('sqlite', true), server('sqlite', true));
  const porticoCases = [...measured.values()];
  all.push(
    floor,
    ...porticoCases.filter((c) => c.case.startsWith('session check')),
    ba.session,
    ...porticoCases.filter((c) => c.case.startsWith('password')),
    ba.signIn,
    rawConcurrent,
    rawSingle,
    ...porticoCases.filter((c) => c.case.startsWith('send') || c.case.startsWith('SMS')),
    ...porticoCases.filter((c) => c.case.startsWith('token refresh')),
    ...several.flatMap((x) => [x.session, x.password]),
    ...(extras
      ? [
          extras.flood.plainSession,
          extras.flood.floodSession,
          extras.flood.plainPassword,
          extras.flood.floodPassword,
          extras.collector,
          extras.quietSession,
          extras.besideCollector.contender,
        ]
      : []),
  );
  // The plans after the run, when the codes table holds what the run issued.
  for (const d of deployments.values()) {
    log(
      `Portico ${d.backend} ${label(d.size)} tables after the run: ${JSON.stringify(await d.main.call('stats'))}`,
    );
    const plans = await d.main.call<Record<string, string>>('plans');
    for (const [name, plan] of Object.entries(plans)) log(`  query plan, ${name}: ${plan}`);
  }

  // ------------------------------------------------------------ the report
  const ratios = new Map<Contender, string>([
    [ba.session, `${pct(rps(ba.session) / rps(floor))} of floor`],
    [
      ba.signIn,
      `${(rps(at('sqlite', true, 'password')) / rps(ba.signIn)).toFixed(1)}× slower than Portico's`,
    ],
  ]);
  if (extras) {
    const { collector, besideCollector, quietSession } = extras;
    ratios.set(collector, `${label(Math.round(rps(collector) * BATCH_EVENTS))} events/s`);
    ratios.set(
      besideCollector.contender,
      `${pct(rps(besideCollector.contender) / rps(quietSession))} of alone`,
    );
  }
  for (const backend of BACKENDS)
    for (const big of [false, true]) {
      ratios.set(
        at(backend, big, 'session'),
        `${pct(rps(at(backend, big, 'session')) / rps(floor))} of floor`,
      );
      ratios.set(
        at(backend, big, 'password'),
        `${pct(rps(at(backend, big, 'password')) / rps(rawConcurrent))} of raw argon2id`,
      );
    }
  for (const backend of BACKENDS)
    ratios.set(
      at(backend, true, 'identitySession'),
      `${pct(rps(at(backend, true, 'identitySession')) / rps(at(backend, true, 'session')))} of a personal session's`,
    );
  for (const x of several) {
    ratios.set(x.session, `${pct(rps(x.session) / rps(several[0]?.session as Contender))} of one process`);
    ratios.set(x.password, `${pct(rps(x.password) / rps(several[0]?.password as Contender))} of one process`);
  }
  const lines: string[] = [];
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ` +
      `load average ${loadAtStart} at the start and ${load1()} at the end (other work on the machine included).`,
  );
  lines.push('');
  lines.push('| system | case | accounts | per s | p50 ms | p99 ms | ratio | failed |');
  lines.push('|---|---|---:|---:|---:|---:|---|---:|');
  for (const c of all) {
    const f = c.result as Figures;
    lines.push(
      `| ${c.system} | ${c.case} | ${c.accounts} | ${f.rps.toFixed(f.rps < 100 ? 1 : 0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${ratios.get(c) ?? ''} | ${f.failures} |`,
    );
  }
  lines.push('');
  const big = at('sqlite', true, 'session');
  lines.push(`| target (SQLite, ${label(BIG.sqlite)} accounts) | measured | |`);
  lines.push('|---|---|---|');
  lines.push(
    ...targetRows({
      session: rps(big),
      floor: rps(floor),
      betterAuth: rps(ba.session),
      password: rps(at('sqlite', true, 'password')),
      raw: rps(rawConcurrent),
    }),
  );
  const id = rps(at('sqlite', true, 'identitySession')) / rps(big);
  lines.push(
    `| identity session check within 10 % of a personal session's | ${pct(id)} (${rps(at('sqlite', true, 'identitySession')).toFixed(0)} / ${rps(big).toFixed(0)} req/s) | ${check(id >= 0.9)} |`,
  );

  // The two backends side by side, with the same ratios, and CPU per request.
  lines.push('');
  lines.push(
    `CPU per request from the processes' own accounting; the backends' share is PostgreSQL's and Redis's CPU from /proc during the slices, less their idle rate (${(idle / 1e4).toFixed(1)} % of a core, other people's work). "Per core" is one second of CPU over the µs a request costs: the server alone, and the server with its backends.`,
  );
  lines.push('');
  lines.push(
    '| case | backend | accounts | per s | ratio | server µs/req | backends µs/req | per core, server | per core, with backends |',
  );
  lines.push('|---|---|---:|---:|---|---:|---:|---:|---:|');
  const flowRate = (a: number, b: number) => 1 / (1 / a + 1 / b);
  for (const [name, caseName] of [
    ['session check', 'session'],
    ['session check, organisation identity', 'identitySession'],
    ['password login', 'password'],
    ['send code', 'sendCode'],
    ['SMS code login', 'smsLogin'],
    ['token refresh', 'refresh'],
  ] as const) {
    for (const big of [false, true])
      for (const backend of BACKENDS) {
        if (caseName === 'identitySession' && !big) continue;
        const c = at(backend, big, caseName);
        const cpu = perRequest(c, backend === 'postgres' ? idle : 0);
        lines.push(
          `| ${name} | ${BACKEND_NAME[backend]} | ${c.accounts} | ${fixed(rps(c))} | ${ratios.get(c) ?? ''} | ${cpu.server.toFixed(0)} | ${cpu.backends.toFixed(0)} | ${fixed(perCore(cpu.server))} | ${fixed(perCore(cpu.server + cpu.backends))} |`,
        );
      }
  }
  const hashCpu = perRequest(rawConcurrent, 0).server;
  lines.push(
    `| raw argon2id, ${LOGIN_CONNECTIONS} in flight (a password sign-in's hash) | | | ${fixed(rps(rawConcurrent))} | | ${hashCpu.toFixed(0)} | 0 | ${fixed(perCore(hashCpu))} | ${fixed(perCore(hashCpu))} |`,
  );
  for (const big of [false, true])
    for (const backend of BACKENDS) {
      const send = perRequest(at(backend, big, 'sendCode'), backend === 'postgres' ? idle : 0);
      const redeem = perRequest(at(backend, big, 'smsLogin'), backend === 'postgres' ? idle : 0);
      const rate = flowRate(rps(at(backend, big, 'sendCode')), rps(at(backend, big, 'smsLogin')));
      lines.push(
        `| whole code sign-in (send + login) | ${BACKEND_NAME[backend]} | ${label(big ? BIG[backend] : SMALL)} | ${fixed(rate)} | | ${(send.server + redeem.server).toFixed(0)} | ${(send.backends + redeem.backends).toFixed(0)} | ${fixed(perCore(send.server + redeem.server))} | ${fixed(perCore(send.server + redeem.server + send.backends + redeem.backends))} |`,
      );
    }

  // Growth: the large size against the small one, on each backend.
  lines.push('');
  lines.push(
    '| growth: the large size against 1,000 accounts (the same cost reads 100 %) | backend | 1,000 | large | accounts | ratio |',
  );
  lines.push('|---|---|---:|---:|---:|---:|');
  for (const backend of BACKENDS) {
    for (const [name, caseName] of [
      ['session check, req/s', 'session'],
      ['password login, per s', 'password'],
      ['send code, per s', 'sendCode'],
      ['SMS code login, per s', 'smsLogin'],
      ['token refresh, per s', 'refresh'],
    ] as const) {
      const a = rps(at(backend, false, caseName));
      const b = rps(at(backend, true, caseName));
      lines.push(
        `| ${name} | ${BACKEND_NAME[backend]} | ${fixed(a)} | ${fixed(b)} | ${label(BIG[backend])} | ${pct(b / a)} |`,
      );
    }
    const a = flowRate(rps(at(backend, false, 'sendCode')), rps(at(backend, false, 'smsLogin')));
    const b = flowRate(rps(at(backend, true, 'sendCode')), rps(at(backend, true, 'smsLogin')));
    lines.push(
      `| whole code sign-in, per s | ${BACKEND_NAME[backend]} | ${fixed(a)} | ${fixed(b)} | ${label(BIG[backend])} | ${pct(b / a)} |`,
    );
  }
  lines.push('');
  lines.push(
    '| database size (accounts with one session each, after seeding) | 1,000 | large | accounts | per million accounts |',
  );
  lines.push('|---|---:|---:|---:|---:|');
  for (const backend of BACKENDS) {
    const a = dbBytes.get(key(backend, SMALL)) as number;
    const b = dbBytes.get(key(backend, BIG[backend])) as number;
    const perMillion = ((b - a) / (BIG[backend] - SMALL)) * 1e6;
    lines.push(
      `| ${BACKEND_NAME[backend]} | ${(a / 2 ** 20).toFixed(1)} MiB | ${(b / 2 ** 20).toFixed(0)} MiB | ${label(BIG[backend])} | ${(perMillion / 2 ** 20).toFixed(0)} MiB |`,
    );
  }

  // Several servers: per-process cost and the shared backends' share.
  lines.push('');
  lines.push(
    `| several servers (PostgreSQL + Redis, ${label(BIG.postgres)} accounts, round-robin proxy) | processes | per s | per process | server µs/req | backends µs/req | proxy µs/req | per core, server |`,
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const x of several)
    for (const [name, c] of [
      ['session check', x.session],
      ['password login', x.password],
    ] as const) {
      const cpu = perRequest(c, idle);
      lines.push(
        `| ${name} | ${x.count} | ${fixed(rps(c))} | ${fixed(rps(c) / x.count)} | ${cpu.server.toFixed(0)} | ${cpu.backends.toFixed(0)} | ${cpu.proxy.toFixed(0)} | ${fixed(perCore(cpu.server))} |`,
      );
    }
  if (extras) {
    const { flood, collector, besideCollector, quietSession } = extras;
    lines.push('');
    // Issue 10: the session check and password sign-in under a concurrent puzzle flood.
    lines.push(...floodReport(flood));
    // Issue 18: the collector's own throughput, and the session check beside a steady collector load.
    // A rated autocannon load sends each second's requests in a burst, so the time to its last answer is
    // shorter than the slice: the rate is the answers over the slices' length.
    const held = figures(besideCollector.side);
    const heldRate = held.total / (besideCollector.side.length * SLICE_SECONDS);
    const withCollector = rps(besideCollector.contender) / rps(quietSession);
    lines.push('');
    lines.push(`| the monitoring collector (${BATCH_EVENTS} events per batch) | measured | |`);
    lines.push('|---|---|---|');
    lines.push(
      `| alone, ${COLLECTOR_CONNECTIONS} connections, no rate | ${rps(collector).toFixed(0)} batches/s = ${label(Math.round(rps(collector) * BATCH_EVENTS))} events/s (p99 ${(collector.result as Figures).p99.toFixed(1)} ms) | |`,
    );
    lines.push(
      `| beside the session check, held at ${COLLECTOR_RATE} batches/s | ${heldRate.toFixed(0)} batches/s = ${label(Math.round(heldRate * BATCH_EVENTS))} events/s, ${held.failures} failed | |`,
    );
    lines.push(
      `| session check beside it ≥ 95 % of alone | ${pct(withCollector)} (${rps(besideCollector.contender).toFixed(0)} / ${rps(quietSession).toFixed(0)} req/s) | ${check(withCollector >= 0.95)} |`,
    );
  }
  report = lines.join('\n');
} finally {
  await Promise.all(targets.map((t) => t.stop()));
  await cleanUp();
}

// The challenge's price (docs/security.md): CPU alone, after every server has stopped.
if (!sizingOnly) {
  log('the challenge’s proof of work: a script’s CPU-seconds and a person’s seconds');
  report += `\n\n${(await challengeCost()).join('\n')}`;
  // A passkey sign-in's verification against raw P-256 (docs/benchmarks.md): CPU alone, in-process.
  log('passkey sign-in verification against raw P-256');
  report += `\n\n${passkeyReport(await passkeyVerifyCost(log)).join('\n')}`;
}
process.stdout.write(`\n${report}\n`);
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
const failed = all.filter((c) => (c.result?.failures ?? 0) > 0);
if (failed.length) {
  log(`FAILED: ${failed.map((c) => `${c.system} ${c.case} ${c.accounts}`).join(', ')} had failed responses`);
  process.exit(1);
}
