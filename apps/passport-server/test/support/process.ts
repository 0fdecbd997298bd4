import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/protocol';

const packageDir = resolve(import.meta.dirname, '../..');
const builtMain = join(packageDir, 'dist/main.js');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The built start command, `dist/main.js`. CI's turbo pipeline builds before it tests, so the build is
 * normally there and fresh; when it is missing or older than the sources (a local `vitest run` after an
 * edit), it is rebuilt here with the package's own tsup config, as `pnpm build` would.
 */
export async function builtServer(): Promise<string> {
  const sources = Math.max(
    newest(join(packageDir, 'src')),
    newest(resolve(packageDir, '../../packages/account-sdk/src/protocol')),
  );
  if (!existsSync(builtMain) || statSync(builtMain).mtimeMs < sources) {
    const { build } = await import('tsup');
    const cwd = process.cwd();
    process.chdir(packageDir);
    try {
      await build({ silent: true });
    } finally {
      process.chdir(cwd);
    }
  }
  return builtMain;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  return typeof address === 'object' && address ? address.port : 0;
}

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  /** What the process wrote to stderr (for a failure message). */
  stderr(): string;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
}

/** Starts `node dist/main.js` with exactly `env` (plus PATH) and waits for its start banner. */
export async function spawnServer(main: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: packageDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    // A hang detector, not a speed bound: a start took over 15 s on a loaded 2-core machine.
    const timer = setTimeout(() => fail(new Error(`the server did not start in 90 s: ${err}`)), 90_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Portico passport server on')) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited with ${code} before it started: ${err}`));
    });
  });
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    stderr: () => err,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A browser over real HTTP: a cookie jar and the CSRF header the SDK sends. */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly origin: string,
    /** Sent as X-Forwarded-For (the server under test trusts its proxy), so per-address caps never couple clients. */
    private readonly address: string,
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string | number>): Promise<any> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.address };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (method === 'POST' && csrf) headers[CSRF_HEADER] = csrf;
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(
        Object.entries(form).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    }
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response.json();
  }
}
