import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * The SDK from Node, as its README shows it: `packages/account-sdk/examples/node-sign-in.mjs` runs as
 * a separate process against this real server (a cookie jar, the CSRF header copied by the SDK, no
 * stand-in document of our own), and signs in and out.
 */
const example = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'packages',
  'account-sdk',
  'examples',
  'node-sign-in.mjs',
);

describe('the SDK example for Node', () => {
  let server: SdkServer;
  beforeAll(async () => {
    server = await startSdkServer();
  });
  afterAll(async () => server?.close());

  it('signs in by SMS code and out against the real server', async () => {
    const mobile = freshMobile();
    const { stdout } = await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, PASSPORT_URL: server.baseUrl, MOBILE: mobile },
      timeout: 60_000,
    });
    const user = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', mobile)
      .executeTakeFirst();
    expect(user).toBeDefined();
    expect(stdout).toContain(`signed in: user ${user?.id}`);
    expect(stdout).toContain(`account info: user ${user?.id}`);
    expect(stdout).toMatch(/the jar holds: .*passport_csrf_token.*sessionid/);
    expect(stdout).toContain('signed out');
    const sessions = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', user?.id ?? '')
      .execute();
    expect(sessions).toHaveLength(0);
  });
});
