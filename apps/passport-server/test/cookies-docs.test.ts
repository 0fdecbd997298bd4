import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * Every cookie the server sets has a row in docs/protocol.md's "Headers and cookies" table: a product
 * team configuring a proxy, a consent banner or a cookie policy must find each of them there.
 */
const root = join(import.meta.dirname, '..');
const docs = readFileSync(join(root, '..', '..', 'docs', 'protocol.md'), 'utf8');
const section = docs.slice(docs.indexOf('## Headers and cookies'));
const documented = new Set(
  [...section.matchAll(/^\| `([^`]+)` \| cookie \|/gm)].map((match) => match[1] as string),
);

describe('the cookie table of docs/protocol.md', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ secondVerify: true });
  });
  afterAll(async () => server?.close());

  it('names every cookie a sign-in leaves in the browser', async () => {
    const browser = server.browser();
    browser.cookies.set('s_v_web_id', `verify_${randomBytes(16).toString('hex')}`);
    await browser.get(paths.web.accountInfo);
    await signInBySms(server, browser);
    expect([...browser.cookies.keys()]).toContain('passport_device');
    for (const name of browser.cookies.keys()) expect(documented, name).toContain(name);
  });

  it('names every passport_ cookie the sources set, and the prefixes they take behind https', () => {
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(root, 'src', file), 'utf8'))
      .join('\n');
    const names = new Set(
      [...sources.matchAll(/['`}](?:__Host-|__Secure-)?(passport_[a-z_]+)['`]/g)].map((m) => m[1] as string),
    );
    expect(names.size).toBeGreaterThanOrEqual(4);
    for (const name of names) expect(documented, name).toContain(name);
    expect(section).toContain('`__Host-`');
    expect(section).toContain('`__Secure-`');
  });
});
