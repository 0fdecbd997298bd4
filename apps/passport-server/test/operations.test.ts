import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke, type Principal } from '../src/adapters/invoke';
import { QueryOutsideTransactionError } from '../src/db/operation-scope';
import { caller, defineOperation } from '../src/operations/define';
import { banRole, createRole, roleInfo } from '../src/operations/organisation/roles';
import { affiliatePaths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { type Answer, startServer, type TestServer } from './support/server';

/**
 * Operations as a caller sees them without any route: called directly with a person, their clock the
 * server's, their events committed with their change; and the seams an operation must not cross.
 */

let server: TestServer;
let clock = Date.now();
beforeAll(async () => {
  server = await startServer({}, { now: () => clock });
});
afterAll(() => server?.close());

const ok = (answer: Answer) => {
  expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
  return answer.body.data;
};

/** A signed-in person managing a new subject, as the principal an adapter would prove. */
async function managerPrincipal(): Promise<{ as: Principal; sid: string }> {
  const browser = server.browser();
  const { mobile, userId } = await signInBySms(server, browser);
  const subject = ok(
    await browser.post(affiliatePaths.subjectCreateByMobile, {
      mobile,
      subject_name: 'Ops',
      deputy_name: 'B',
    }),
  );
  const user = await server.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { as: { kind: 'person', user }, sid: subject.sec_subject_uid };
}

describe('an operation called directly', () => {
  it('runs for a caller, on the server’s clock, and commits its events with its change', async () => {
    const { as, sid } = await managerPrincipal();
    clock += 86_400_000;
    const role = await invoke(
      server.app,
      createRole,
      { subject_uid: sid, role_key: 'direct', role_name: 'Direct', permissions: ['role:read'] },
      as,
      { ip: '10.9.8.7', deviceId: 'device-1' },
    );
    expect(role).toMatchObject({ role_key: 'direct', created_at: clock, permissions: ['role:read'] });
    const [event] = await server.app.db
      .selectFrom('events')
      .selectAll()
      .where('stream', '=', `subject:${sid}`)
      .where('type', '=', 'organisation.role.created')
      .execute();
    expect(event).toMatchObject({ occurred_at: clock, ip: '10.9.8.7', device_id: 'device-1' });
    expect(await invoke(server.app, roleInfo, { subject_uid: sid, role_key: 'direct' }, as)).toEqual(role);
  });

  it('checks the caller it declares before it runs: a person, their identity in the subject, its permission', async () => {
    const { as, sid } = await managerPrincipal();
    const input = { subject_uid: sid, role_key: 'x', role_name: 'x', permissions: [] };
    await expect(invoke(server.app, createRole, input, { kind: 'anonymous' })).rejects.toMatchObject({
      errorName: 'notLoggedIn',
    });
    const stranger = await managerPrincipal();
    await expect(invoke(server.app, createRole, input, stranger.as)).rejects.toMatchObject({
      errorName: 'subjectNotFound',
    });
    await invoke(server.app, createRole, { ...input, role_key: 'reader', permissions: ['role:read'] }, as);
    await expect(
      invoke(server.app, banRole, { subject_uid: stranger.sid, role_key: 'reader' }, as),
    ).rejects.toMatchObject({ errorName: 'subjectNotFound' });
    // The stranger as a member without roles: an identity, but not the permission.
    const now = server.app.runtime.now();
    await server.app.db
      .insertInto('deputies')
      .values({
        id: `d-${stranger.sid}`,
        subject_id: sid,
        user_id: stranger.as.kind === 'person' ? stranger.as.user.id : '',
        deputy_name: 'M',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await expect(invoke(server.app, createRole, input, stranger.as)).rejects.toMatchObject({
      errorName: 'permissionDenied',
      extra: { permission: 'role:create' },
    });
  });

  it('runs an operation that declares a step-up only for a person who verified within it (STEP_UP_REQUIRED otherwise)', async () => {
    const { as, sid } = await managerPrincipal();
    const stepUp = defineOperation({
      name: 'test.step-up',
      input: Type.Object({ subject_uid: Type.String() }),
      output: Type.Object({ ran: Type.Boolean() }),
      caller: caller.person,
      stepUp: 300,
      emits: [],
      run: async () => ({ ran: true }),
    });
    const input = { subject_uid: sid };
    const user = as.kind === 'person' ? as.user : undefined;
    if (!user) throw new Error('a person');
    expect(
      await invoke(server.app, stepUp, input, { kind: 'person', user, verifiedAt: clock - 300_000 }),
    ).toEqual({ ran: true });
    for (const verifiedAt of [clock - 300_001, null, undefined])
      await expect(
        invoke(server.app, stepUp, input, { kind: 'person', user, verifiedAt }),
      ).rejects.toMatchObject({
        errorName: 'stepUpRequired',
        extra: { max_age: 300, has_password: false },
      });
    await expect(invoke(server.app, stepUp, input, { kind: 'anonymous' })).rejects.toMatchObject({
      errorName: 'notLoggedIn',
    });
  });

  it('is not mounted while it declares what no adapter checks: an API key, a step-up for nobody', async () => {
    const { as, sid } = await managerPrincipal();
    const base = {
      name: 'test.unmountable',
      input: Type.Object({ subject_uid: Type.String() }),
      output: Type.Object({}),
      emits: [],
      run: async () => ({}),
    } as const;
    const anonymousStepUp = defineOperation({ ...base, caller: caller.anonymous, stepUp: 300 });
    await expect(invoke(server.app, anonymousStepUp, { subject_uid: sid }, as)).rejects.toThrow(/step-up/);
    const apiKey = defineOperation({ ...base, caller: caller.apiKey('roles:write') });
    await expect(invoke(server.app, apiKey, { subject_uid: sid }, as)).rejects.toThrow(/API key/);
  });

  it('rolls its events back with a change that fails, and refuses an event it does not declare', async () => {
    const { as, sid } = await managerPrincipal();
    const failing = defineOperation({
      name: 'test.failing',
      input: Type.Object({ subject_uid: Type.String() }),
      output: Type.Object({}),
      caller: caller.identity('role:ban'),
      subject: (input) => input.subject_uid,
      emits: ['organisation.role.banned'],
      async run(ctx) {
        ctx.emit({
          type: 'organisation.role.banned',
          stream: `subject:${sid}`,
          actor: { kind: 'system' },
          data: { roleKey: 'never' },
        });
        throw new Error('the change failed');
      },
    });
    await expect(invoke(server.app, failing, { subject_uid: sid }, as)).rejects.toThrow('the change failed');
    const undeclared = defineOperation({
      ...failing,
      name: 'test.undeclared',
      emits: [],
    });
    await expect(invoke(server.app, undeclared, { subject_uid: sid }, as)).rejects.toThrow(
      /does not declare/,
    );
    const events = await server.app.db
      .selectFrom('events')
      .select('id')
      .where('stream', '=', `subject:${sid}`)
      .where('type', '=', 'organisation.role.banned')
      .execute();
    expect(events).toEqual([]);
  });
});

describe('the seams an operation must not cross', () => {
  it('a query on the app’s database handle inside an operation’s transaction fails at once, and the server goes on answering', async () => {
    const { as, sid } = await managerPrincipal();
    const app = server.app;
    const strays = defineOperation({
      name: 'test.strays',
      input: Type.Object({ subject_uid: Type.String() }),
      output: Type.Object({}),
      caller: caller.identity(null),
      subject: (input) => input.subject_uid,
      emits: [],
      async run() {
        // What the member invitation flow did: on SQLite this waited forever for the one connection.
        await app.db.selectFrom('roles').select('id').execute();
        return {};
      },
    });
    await expect(invoke(app, strays, { subject_uid: sid }, as)).rejects.toBeInstanceOf(
      QueryOutsideTransactionError,
    );
    // The handle is free again, inside and outside operations.
    expect(await app.db.selectFrom('roles').select('id').where('subject_id', '=', sid).execute()).toEqual([]);
    expect(
      await invoke(
        app,
        createRole,
        { subject_uid: sid, role_key: 'after', role_name: 'a', permissions: [] },
        as,
      ),
    ).toMatchObject({ role_key: 'after' });
  });

  it('no file of the operations or the access statement imports Fastify or the database handle, or reads the request', () => {
    const root = join(import.meta.dirname, '../src');
    const files = ['operations', 'access'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => join(root, dir, name)),
    );
    expect(files.length).toBeGreaterThan(5);
    const forbidden = [
      /from 'fastify/,
      /from '[^']*\/db\/(database|operation-scope)'/,
      /from '[^']*\/plugins\/app\/db'/,
      /from '[^']*\/adapters\//,
      /\bapp\.db\b/,
      /\bFastify(Instance|Request|Reply)\b/,
      /\.(cookies|headers)\b/,
      /\brequest\.(body|query|session|ip)\b/,
      // Messages leave through ctx.gate only: no provider, no delivery service, no template sent by hand.
      /from '[^']*\/delivery\/(providers|outbox|smtp|webhook)'/,
      /from '[^']*\/plugins\/app\/delivery'/,
      /\bctx\.deliver\b/,
    ];
    const offences = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return forbidden.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern}`);
    });
    expect(offences).toEqual([]);
  });

  it('every sign-in goes one way: only signInWithin opens a session and records account.signed_in, only finishSignIn sets its cookies', () => {
    const root = join(import.meta.dirname, '../src');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => ({ file: name.split('\\').join('/'), text: readFileSync(join(root, name), 'utf8') }));
    const where = (pattern: RegExp) =>
      sources
        .filter(({ text }) => pattern.test(text))
        .map(({ file }) => file)
        .sort();
    // The sign-in operations' one writer (src/operations/sign-in/sign-in.ts); ctx.sessions' own
    // implementation; a password change, which re-issues the changing browser's session (not a sign-in:
    // no proof, no event; docs/operations.md).
    expect(where(/\bsessions\.(open|openFor)\(/)).toEqual([
      'domain/sessions/browser.ts',
      'flows/new-password.ts',
      'operations/sign-in/sign-in.ts',
    ]);
    expect(where(/\bsessions\.start\(/)).toEqual(['flows/complete-sign-in.ts', 'flows/new-password.ts']);
    expect(where(/\(\s*ctx\s*,\s*'account\.signed_in'/)).toEqual(['operations/sign-in/sign-in.ts']);
    // And the flows that sign in at their end (third-party, reset-and-login, an accepted invitation)
    // call completeSignIn, never the pieces; the identity sign-in's answer hands its operation's
    // session to the browser through finishSignIn.
    expect(where(/\b(signInWithin|finishSignIn)\(/)).toEqual([
      'flows/complete-sign-in.ts',
      'flows/identity-sign-in.ts',
      'operations/sign-in/credentials.ts',
      'operations/sign-in/enterprise-sso.ts',
      'operations/sign-in/identity.ts',
      'operations/sign-in/register.ts',
      'operations/sign-in/sign-in.ts',
    ]);
  });
});
