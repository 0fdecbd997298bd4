import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS } from '../src/domain/passwords/passwords';
import { defaultLimits } from '../src/limits';
import { ErrorCode, paths } from '../src/protocol';
import { judgedWhile, signInBySms } from './support/flows';
import {
  freshEmail,
  freshMobile,
  PRODUCTION_PASSWORD_HASH,
  startServer,
  type TestServer,
} from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { limits: { passwordFailuresPerAccount: 3, ...PRODUCTION_PASSWORD_HASH } });
});
afterAll(async () => server?.close());

const PASSWORD = 'correct horse battery staple';

async function seedUser(
  fields: { email?: string; mobile?: string; username?: string },
  passwordHash?: string,
) {
  const now = Date.now();
  const id = randomUUID();
  await server.app.db
    .insertInto('users')
    .values({
      id,
      email: fields.email ?? null,
      mobile: fields.mobile ?? null,
      username: fields.username ?? null,
      password_hash: passwordHash ?? (await server.app.passwords.hash(PASSWORD)),
      screen_name: 'seeded',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

describe('password login', () => {
  it('signs in by e-mail, mobile, username, or any of them as account', async () => {
    const email = freshEmail();
    const mobile = freshMobile();
    const username = `name${Date.now()}`;
    const id = await seedUser({ email, mobile, username });
    const attempts: Record<string, string>[] = [
      { email: email.toUpperCase() },
      { mobile: mobile.slice(3) },
      { username: username.toUpperCase() },
      { account: email },
      { account: mobile },
      { account: username },
    ];
    for (const identifier of attempts) {
      const answer = await server
        .browser()
        .post('/passport/web/user/login/', { ...identifier, password: PASSWORD });
      expect(answer.body.message, JSON.stringify(identifier)).toBe('success');
      expect(answer.body.data.user_id).toBe(id);
      expect(answer.body.data.has_password).toBe(true);
    }
  });

  it('answers an unknown account and a wrong password with the same status and body', async () => {
    const email = freshEmail();
    await seedUser({ email });
    const wrongPassword = await server
      .browser()
      .post('/passport/web/user/login/', { email, password: 'not the password' });
    const unknownUser = await server
      .browser()
      .post('/passport/web/user/login/', { email: freshEmail(), password: 'not the password' });
    const noPasswordSet = await server
      .browser()
      .post('/passport/web/user/login/', { account: 'nobody-here', password: 'x' });
    expect(wrongPassword.status).toBe(200);
    expect(unknownUser.status).toBe(wrongPassword.status);
    expect(unknownUser.body).toEqual(wrongPassword.body);
    expect(noPasswordSet.body).toEqual(wrongPassword.body);
    expect(wrongPassword.body.data.error_code).toBe(ErrorCode.wrongCredentials);
  });

  it('verifies a hash for an unknown account as for a wrong password (a dummy hash is verified)', async () => {
    // Counted, not timed: each sign-in hands exactly one verify to argon2id, with the account's hash or,
    // for an unknown account, none (passwords.verify then checks the dummy hash). The times themselves
    // are compared over many rounds in enumeration.test.ts.
    const email = freshEmail();
    await seedUser({ email });
    const { passwords } = server.app;
    const real = passwords.verify;
    const calls: (string | null)[] = [];
    passwords.verify = (stored, password) => {
      calls.push(stored);
      return real(stored, password);
    };
    try {
      await server.browser().post('/passport/web/user/login/', { email, password: 'wrong-1' });
      await server.browser().post('/passport/web/user/login/', { email: freshEmail(), password: 'wrong-1' });
    } finally {
      passwords.verify = real;
    }
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^\$argon2id\$/);
    expect(calls[1]).toBeNull();
    expect(await passwords.verify(null, 'wrong-1')).toBe(false);
  });

  it('says IDENTIFIER_REQUIRED when no identifier is given', async () => {
    const answer = await server.browser().post('/passport/web/user/login/', { password: PASSWORD });
    expect(answer.body.data.error_code).toBe(ErrorCode.identifierRequired);
  });

  it('refuses a password over 1 KiB with 400 before hashing', async () => {
    const answer = await server
      .browser()
      .post('/passport/web/user/login/', { email: freshEmail(), password: 'é'.repeat(600) });
    expect(answer.status).toBe(400);
    expect(answer.body.data.error_code).toBe(ErrorCode.invalidParam);
  });

  it('locks the address that failed on an account for a while, even for the right password, and no other', async () => {
    const email = freshEmail();
    await seedUser({ email });
    const guesser = server.browser();
    for (let i = 0; i < 3; i++) {
      const answer = await guesser.post('/passport/web/user/login/', { email, password: `wrong ${i}` });
      expect(answer.body.data.error_code).toBe(ErrorCode.wrongCredentials);
    }
    const locked = await guesser.post('/passport/web/user/login/', { email, password: PASSWORD });
    expect(locked.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
    // The lock is the guesser's (issue 9 item 2): the owner elsewhere is not locked out.
    const owner = await server.browser().post('/passport/web/user/login/', { email, password: PASSWORD });
    expect(owner.body.message).toBe('success');
  });

  it('upgrades a hash made with weaker parameters on the next sign-in', async () => {
    const email = freshEmail();
    const weak = await hash(PASSWORD.normalize('NFKC'), {
      algorithm: 2,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    const id = await seedUser({ email }, weak);
    const answer = await server.browser().post('/passport/web/user/login/', { email, password: PASSWORD });
    expect(answer.body.message).toBe('success');
    const row = await server.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('hashes at OWASP’s argon2id cost unless a server’s limits lower it (the suite’s own servers only)', () => {
    expect(defaultLimits).toMatchObject({
      passwordHashMemoryKiB: ARGON2_OPTIONS.memoryCost,
      passwordHashPasses: ARGON2_OPTIONS.timeCost,
    });
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('signs in with the NFKC form of a password', async () => {
    const email = freshEmail();
    await seedUser({ email }, await server.app.passwords.hash('ｐａｓｓｗｏｒｄ１２３'));
    const answer = await server
      .browser()
      .post('/passport/web/user/login/', { email, password: 'password123' });
    expect(answer.body.message).toBe('success');
  });

  it('locks after 3 of 30 parallel wrong passwords from one address', async () => {
    // The lock is 3 here. Counted, not timed: how many guesses reach argon2id, and what each is answered.
    const email = freshEmail();
    await seedUser({ email });
    const address = server.browser().remoteAddress;
    const fromThere = async () => {
      const browser = server.browser();
      browser.remoteAddress = address;
      await browser.get(paths.web.accountInfo); // its CSRF cookie first, so the 30 sign-ins leave at once
      return browser;
    };
    const browsers = await Promise.all(Array.from({ length: 30 }, fromThere));
    const { judged, codes: answers } = await judgedWhile(
      server,
      browsers.map((b, i) => () => b.post(paths.web.userLogin, { email, password: `wrong ${i}` })),
    );
    // Past the lock, the locked lane judges its own budget per account, each answered as the lock is
    // (docs/security.md, "A shared address that strangers locked"); no more than that.
    expect(judged).toBe(3 + server.app.runtime.limits.lockedLaneGuessesPerAccount);
    expect(answers.filter((code) => code === ErrorCode.wrongCredentials)).toHaveLength(3);
    expect(answers.filter((code) => code === ErrorCode.temporarilyLocked)).toHaveLength(27);
    // As the lock says: the right password from that address waits, and the owner elsewhere signs in.
    const right = await (await fromThere()).post(paths.web.userLogin, { email, password: PASSWORD });
    expect(right.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
    const owner = await server.browser().post(paths.web.userLogin, { email, password: PASSWORD });
    expect(owner.body.message).toBe('success');
  });
});

describe('no truncation', () => {
  // bcrypt reads 72 bytes; a form or a column might cut at 64 or 128 characters; the strength estimate
  // reads the first 32. Each prefix below is refused where the whole password signs in.
  const ascii = `${PASSWORD}, then violet tugboat on a quiet river at dusk, 7 lanterns under the old bridge`;
  const wide = '東京の夜景と大阪の食べ物と京都の古い寺と北海道の雪と沖縄の青い海を見に行く約束'; // 3 bytes a character

  it.each([
    [`an ASCII password of ${ascii.length} bytes`, ascii],
    [`a password of ${wide.length} three-byte characters (${Buffer.byteLength(wide)} bytes)`, wide],
  ])('signs in only with the whole of %s, never a prefix of it', async (_name, password) => {
    const browser = server.browser();
    const { mobile } = await signInBySms(server, browser);
    const set = await browser.post(paths.web.passwordSet, { password });
    expect(set.body.message, 'password/set').toBe('success');

    const bytes = Buffer.from(password);
    expect(bytes.length).toBeGreaterThan(72);
    const chars = [...password];
    /** The longest character prefix that fits in `n` bytes. */
    const byteCut = (n: number) => {
      let cut = '';
      for (const c of chars) {
        if (Buffer.byteLength(cut + c) > n) break;
        cut += c;
      }
      return cut;
    };
    const prefixes = new Set([
      byteCut(72),
      byteCut(64),
      chars.slice(0, 64).join(''),
      chars.slice(0, 32).join(''),
      chars.slice(0, -1).join(''),
    ]);
    prefixes.delete(password);
    expect(prefixes.size).toBeGreaterThanOrEqual(4);
    // A fresh address for each attempt: the lock (3 here) is per address and would answer first.
    const signIn = async (attempt: string) =>
      (await server.browser().post(paths.web.userLogin, { mobile, password: attempt })).body;
    for (const prefix of prefixes) {
      expect((await signIn(prefix)).data.error_code, `${Buffer.byteLength(prefix)}-byte prefix`).toBe(
        ErrorCode.wrongCredentials,
      );
    }
    // The last character counts as much as the first.
    const lastChanged = `${chars.slice(0, -1).join('')}${chars.at(-1) === 'x' ? 'y' : 'x'}`;
    expect((await signIn(lastChanged)).data.error_code).toBe(ErrorCode.wrongCredentials);
    expect((await signIn(password)).message).toBe('success');
  });
});
