import { spawn } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hash as argon2 } from '@node-rs/argon2';
import { hash as bcrypt } from '@node-rs/bcrypt';
import { hashPassword as betterAuthHash } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportReport, importUsers } from '../src/import/import-users';
import {
  type FirebaseHashParameters,
  formatOf,
  readRecords,
  readUsers,
  type Source,
} from '../src/import/sources';
import { ErrorCode } from '../src/protocol';
import { builtServer } from './support/process';
import { freshEmail, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

/** Firebase's published test vector (github.com/firebase/scrypt, README): the project's parameters. */
const FIREBASE: FirebaseHashParameters = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
};
/** …and its user: this password, salt and hash. */
const FIREBASE_USER = {
  password: 'user1password',
  salt: '42xEC+ixf3L2lw==',
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
};
/** The first vector of the bcrypt test suites (OpenWall's crypt_blowfish), as `$2a$`, Supabase's prefix. */
const BCRYPT_VECTOR = {
  password: 'U*U',
  hash: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW',
};

function run(
  source: Source,
  fileName: string,
  content: string,
  options: { dryRun?: boolean; firebase?: FirebaseHashParameters } = {},
): Promise<ImportReport> {
  const records = readUsers(source, readRecords(content, formatOf(fileName, content)), options.firebase);
  return importUsers(server.app.db, {
    source,
    records,
    config: server.config,
    ...(options.dryRun ? { dryRun: true } : {}),
    batchSize: 3,
  });
}

const jsonLines = (rows: object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
const unique = () => randomBytes(6).toString('hex');

async function signIn(identifier: Record<string, string>, password: string) {
  return server.browser().post('/passport/web/user/login/', { ...identifier, password });
}

async function storedHash(email: string): Promise<string | null> {
  const row = await server.app.db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

/** Signs in with the old password (the hash becomes argon2id) after a wrong one fails. */
async function expectOldPasswordWorks(email: string, password: string, algorithm: RegExp) {
  expect(await storedHash(email)).toMatch(algorithm);
  const wrong = await signIn({ email }, `${password}-not`);
  expect(wrong.body.data.error_code).toBe(ErrorCode.wrongCredentials);
  expect(await storedHash(email)).toMatch(algorithm);
  const right = await signIn({ email: email.toUpperCase() }, password);
  expect(right.body.message).toBe('success');
  expect(await storedHash(email)).toMatch(/^\$argon2id\$/);
  // And again, now against the argon2id hash.
  expect((await signIn({ email }, password)).body.message).toBe('success');
}

describe('importing users from another provider', () => {
  it('Auth0: JSON lines with bcrypt hashes; the old password signs in and is rehashed', async () => {
    const email = freshEmail();
    const mobile = freshMobile();
    const password = 'auth0 old password';
    const report = await run(
      'auth0',
      'auth0.json',
      jsonLines([
        {
          user_id: `auth0|${unique()}`,
          email: email.toUpperCase(),
          email_verified: true,
          name: 'Ada Auth0',
          passwordHash: await bcrypt(password, 4),
        },
        { _id: { $oid: unique() }, phone_number: mobile, phone_verified: true },
      ]),
    );
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ total: 2, imported: 2, withPassword: 1, alreadyImported: 0 });
    await expectOldPasswordWorks(email, password, /^\$2b\$04\$/);
    const user = await server.app.db
      .selectFrom('users')
      .select(['screen_name', 'email'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.screen_name).toBe('Ada Auth0');
    const byMobile = await server.app.db
      .selectFrom('users')
      .select(['mobile', 'password_hash'])
      .where('mobile', '=', mobile)
      .executeTakeFirst();
    expect(byMobile).toEqual({ mobile: mobile, password_hash: null });
  });

  it('Supabase: auth.users as CSV, its bcrypt hash and its phone without the plus', async () => {
    const email = freshEmail();
    const phone = `8613${String(Date.now()).slice(-9)}`;
    const csv = [
      'id,email,encrypted_password,email_confirmed_at,phone,phone_confirmed_at,raw_user_meta_data',
      `${unique()},${email},${BCRYPT_VECTOR.hash},2024-01-02 03:04:05+00,,,"{""full_name"":""Sue Base""}"`,
      `${unique()},,,,${phone},2024-01-02 03:04:05+00,{}`,
    ].join('\n');
    const report = await run('supabase', 'users.csv', csv);
    expect(report.problems).toEqual([]);
    expect(report.imported).toBe(2);
    await expectOldPasswordWorks(email, BCRYPT_VECTOR.password, /^\$2a\$05\$/);
    const byPhone = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', `+${phone}`)
      .executeTakeFirst();
    expect(byPhone).toBeDefined();
  });

  it('Firebase: auth:export JSON with its modified scrypt (the documented test vector)', async () => {
    const email = freshEmail();
    const document = {
      users: [
        {
          localId: unique(),
          email,
          emailVerified: true,
          passwordHash: FIREBASE_USER.passwordHash,
          salt: FIREBASE_USER.salt,
          displayName: 'Fire Base',
        },
      ],
    };
    const report = await run('firebase', 'firebase.json', JSON.stringify(document, null, 2), {
      firebase: FIREBASE,
    });
    expect(report.problems).toEqual([]);
    expect(report.imported).toBe(1);
    await expectOldPasswordWorks(email, FIREBASE_USER.password, /^\$firebase-scrypt\$ln=14,r=8\$/);
  });

  it('Better Auth: its scrypt, hashed by Better Auth, from the credential account', async () => {
    const email = freshEmail();
    const password = 'better auth password';
    // Hashed by Better Auth itself (its scrypt: the hex salt's text as the salt, N 16384, r 16, p 1).
    const stored = await betterAuthHash(password);
    const report = await run(
      'better-auth',
      'better-auth.json',
      JSON.stringify([
        {
          id: unique(),
          email,
          emailVerified: true,
          name: 'Bett Auth',
          accounts: [{ providerId: 'credential', password: stored }],
        },
      ]),
    );
    expect(report.problems).toEqual([]);
    await expectOldPasswordWorks(email, password, /^\$scrypt\$ln=14,r=16,p=1\$/);
  });

  it('Clerk: its CSV with bcrypt, argon2id and PBKDF2 digests; an unknown hasher is reported', async () => {
    const [bcryptEmail, argonEmail, pbkdf2Email, md5Email] = [
      freshEmail(),
      freshEmail(),
      freshEmail(),
      freshEmail(),
    ];
    const password = 'clerk old password';
    const django = `pbkdf2_sha256$10000$saltsalt$${pbkdf2Sync(password, 'saltsalt', 10_000, 32, 'sha256').toString('base64')}`;
    const argonHash = await argon2(password, { algorithm: 2, memoryCost: 1024, timeCost: 1 });
    const header =
      'id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher';
    const row = (email: string, digest: string, hasher: string, username = '') =>
      `user_${unique()},Clerk,Kent,${username},${email},,${email},,,,,"${digest}",${hasher}`;
    const username = `clerk${unique()}`;
    const csv = [
      header,
      row(bcryptEmail, await bcrypt(password, 4), 'bcrypt', username),
      row(argonEmail, argonHash, 'argon2id'),
      row(pbkdf2Email, django, 'pbkdf2_sha256'),
      row(md5Email, '5f4dcc3b5aa765d61d8327deb882cf99', 'md5'),
      'user_short,a row with too few cells',
    ].join('\n');
    const report = await run('clerk', 'clerk.csv', csv);
    expect(report.problems).toEqual([
      { line: 5, id: expect.stringMatching(/^user_/), reason: 'unsupported_hasher', detail: 'md5' },
      { line: 6, reason: 'unreadable_record' },
    ]);
    expect(report.imported).toBe(3);
    await expectOldPasswordWorks(bcryptEmail, password, /^\$2b\$/);
    await expectOldPasswordWorks(argonEmail, password, /^\$argon2id\$v=19\$m=1024,t=1/);
    await expectOldPasswordWorks(pbkdf2Email, password, /^\$pbkdf2-sha256\$i=10000\$/);
    expect((await signIn({ username }, password)).body.message).toBe('success');
  });

  it('reports duplicates and bad records with their lines, imports the rest, and never merges', async () => {
    const existing = freshEmail();
    await server.app.db
      .insertInto('users')
      .values({ id: unique(), email: existing, screen_name: 'here first', created_at: 1, updated_at: 1 })
      .execute();
    const [a, b, c] = [freshEmail(), freshEmail(), freshEmail()];
    const hash = await bcrypt('whatever it was', 4);
    const duplicateId = `auth0|${unique()}`;
    const rows = [
      { user_id: duplicateId, email: a, passwordHash: hash }, // 1: imported
      { user_id: duplicateId, email: b, passwordHash: hash }, // 2: the same provider id
      { user_id: `auth0|${unique()}`, email: ` ${a.toUpperCase()} `, passwordHash: hash }, // 3: a's address again
      { user_id: `auth0|${unique()}`, email: existing, passwordHash: hash }, // 4: an account has it
      { user_id: `auth0|${unique()}`, email: 'not an address' }, // 5
      { user_id: `auth0|${unique()}`, phone_number: '123' }, // 6
      { user_id: `auth0|${unique()}`, email: c, passwordHash: '$1$md5crypt$hash' }, // 7
      { user_id: `auth0|${unique()}`, email: c, passwordHash: `$2b$20$${'a'.repeat(53)}` }, // 8: too costly
      { email: c }, // 9: no id
      { user_id: `auth0|${unique()}`, email: c, email_verified: false, passwordHash: hash }, // 10: unverified only
      { user_id: `auth0|${unique()}`, email: c, email_verified: true, passwordHash: hash }, // 11: imported
    ];
    const content = `${jsonLines(rows)}{not json\n`; // 12
    const report = await run('auth0', 'auth0.jsonl', content);
    expect(report.problems).toEqual([
      { line: 2, id: duplicateId, reason: 'duplicate_id_in_file', detail: 'line 1' },
      { line: 3, id: rows[2]?.user_id, reason: 'duplicate_in_file', detail: 'email, line 1' },
      { line: 4, id: rows[3]?.user_id, reason: 'identifier_taken', detail: 'email' },
      { line: 5, id: rows[4]?.user_id, reason: 'invalid_email' },
      { line: 6, id: rows[5]?.user_id, reason: 'invalid_mobile' },
      { line: 7, id: rows[6]?.user_id, reason: 'unknown_hash_format' },
      { line: 8, id: rows[7]?.user_id, reason: 'hash_cost_out_of_range' },
      { line: 9, reason: 'missing_id' },
      { line: 10, id: rows[9]?.user_id, reason: 'no_identifier' },
      { line: 12, reason: 'unreadable_record' },
    ]);
    expect(report.notes).toEqual([{ line: 10, id: rows[9]?.user_id, reason: 'unverified_email_dropped' }]);
    expect(report.imported).toBe(2);
    // The account that held the address first is untouched: its owner's, not the import's.
    const first = await server.app.db
      .selectFrom('users')
      .select(['screen_name', 'password_hash'])
      .where('email', '=', existing)
      .executeTakeFirstOrThrow();
    expect(first).toEqual({ screen_name: 'here first', password_hash: null });
  });

  it('names the line each record of a pretty-printed JSON export starts on', async () => {
    const document = JSON.stringify(
      { users: [{ localId: unique(), email: 'nope' }, { email: freshEmail() }] },
      null,
      2,
    );
    const report = await run('firebase', 'export.json', document, { firebase: FIREBASE });
    expect(report.problems).toEqual([
      { line: 3, id: expect.any(String), reason: 'invalid_email' },
      { line: 7, reason: 'missing_id' },
    ]);
  });

  it('writes nothing in a dry run, and a second run skips what the first imported', async () => {
    const emails = [freshEmail(), freshEmail(), freshEmail(), freshEmail()];
    const hash = await bcrypt('again and again', 4);
    const content = jsonLines(
      emails.map((email, i) => ({ user_id: `auth0|dry${i}${unique()}`, email, passwordHash: hash })),
    );
    const count = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('email', 'in', emails)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const events = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('type', '=', 'account.imported')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const eventsBefore = await events();
    const dry = await run('auth0', 'users.json', content, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, imported: 4, problems: [] });
    expect(await count()).toBe(0);
    expect(await events()).toBe(eventsBefore);

    const first = await run('auth0', 'users.json', content);
    expect(first).toMatchObject({ imported: 4, alreadyImported: 0 });
    expect(await count()).toBe(4);
    expect(await events()).toBe(eventsBefore + 4);
    const again = await run('auth0', 'users.json', content);
    expect(again).toMatchObject({ imported: 0, alreadyImported: 4, problems: [] });
    expect(await count()).toBe(4);
  });

  it('runs as a command on the server database: progress on stderr, the report on stdout', async () => {
    const main = await builtServer();
    const file = join(server.config.dataDir, 'export.jsonl');
    const email = freshEmail();
    writeFileSync(
      file,
      jsonLines([
        { user_id: `auth0|cli${unique()}`, email, passwordHash: await bcrypt('from the command', 4) },
        { user_id: `auth0|cli${unique()}`, email: 'broken' },
      ]),
    );
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: server.config.dataDir,
      PUBLIC_ORIGIN: server.config.publicOrigin,
      ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}),
      ...(server.config.databaseSchema ? { DATABASE_SCHEMA: server.config.databaseSchema } : {}),
    };
    const command = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
        const child = spawn(process.execPath, [join(dirname(main), 'import-users.js'), ...args], { env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk;
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk;
        });
        child.once('error', fail);
        child.once('exit', (code) => done({ code, stdout, stderr }));
      });

    const usage = await command(['--from', 'okta', '--file', file]);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toContain('--from must be one of');

    const dry = await command(['--from', 'auth0', '--file', file, '--dry-run']);
    expect(dry.stdout, dry.stderr).toContain(
      'Dry run (nothing written): auth0: 2 records, 1 would be imported',
    );
    expect(dry.stdout).toContain('line 2 (auth0|cli');
    expect(dry.stdout).toContain('invalid_email');
    expect(dry.stderr).toMatch(/2\/2 records, 1 to import, [\d,]+ records\/s, ETA 0 s/);
    expect(dry.code).toBe(2);
    expect((await signIn({ email }, 'from the command')).body.data.error_code).toBe(
      ErrorCode.wrongCredentials,
    );

    const real = await command(['--from', 'auth0', '--file', file, '--report', `${file}.report.json`]);
    expect(real.stdout).toContain(
      'auth0: 2 records, 1 imported (1 with a password), 0 already imported, 1 left out',
    );
    expect(real.code).toBe(2);
    expect((await signIn({ email }, 'from the command')).body.message).toBe('success');
  });
});
