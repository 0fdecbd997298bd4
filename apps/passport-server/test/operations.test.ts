import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke, type Principal } from '../src/adapters/invoke';
import { QueryOutsideTransactionError } from '../src/db/operation-scope';
import { type CallerSpec, caller, defineOperation, type Operation } from '../src/operations/define';
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

  it('runs an operation declared for operators only for an operator: anyone else is refused before the step-up and the run', async () => {
    const operator = await managerPrincipal();
    const person = await managerPrincipal();
    if (operator.as.kind !== 'person' || person.as.kind !== 'person') throw new Error('people');
    server.app.config.operators.push(operator.as.user.id);
    let runs = 0;
    const operatorOnly = defineOperation({
      name: 'test.operator-only',
      input: Type.Object({}),
      output: Type.Object({ ran: Type.Boolean() }),
      caller: caller.operator,
      stepUp: 300,
      emits: [],
      run: async () => {
        runs += 1;
        return { ran: true };
      },
    });
    const fresh = { verifiedAt: clock };
    // The error the console and the API keys answered when each checked by hand: NOT_AN_OPERATOR, also
    // to a person whose step-up is stale (nobody is asked to verify for what they may never do).
    for (const verifiedAt of [clock, null])
      await expect(invoke(server.app, operatorOnly, {}, { ...person.as, verifiedAt })).rejects.toMatchObject({
        errorName: 'notAnOperator',
      });
    await expect(invoke(server.app, operatorOnly, {}, { kind: 'anonymous' })).rejects.toMatchObject({
      errorName: 'notLoggedIn',
    });
    await expect(
      invoke(server.app, operatorOnly, {}, { ...operator.as, verifiedAt: null }),
    ).rejects.toMatchObject({ errorName: 'stepUpRequired' });
    expect(runs).toBe(0);
    expect(await invoke(server.app, operatorOnly, {}, { ...operator.as, ...fresh })).toEqual({ ran: true });
  });

  it('declares every operation’s caller, and this lists them', async () => {
    const found = new Map<string, Operation>();
    const isOperation = (value: unknown): value is Operation =>
      typeof value === 'object' && value !== null && 'name' in value && 'caller' in value && 'run' in value;
    // Each module's exports, and the tables of operations they export (the console's, the webhooks').
    const collect = (value: unknown, depth: number) => {
      if (isOperation(value)) found.set(value.name, value);
      else if (depth < 3 && typeof value === 'object' && value !== null)
        for (const inner of Object.values(value)) collect(inner, depth + 1);
    };
    const root = join(import.meta.dirname, '../src/operations');
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }))
      if (name.endsWith('.ts')) collect(await import(join(root, name)), 0);
    const described = (spec: CallerSpec) => {
      if (spec.kind === 'identity') return `identity(${spec.permission ?? 'member'})`;
      if (spec.kind === 'apiKey') return `apiKey(${spec.scope})`;
      return spec.kind === 'person' && spec.operator ? 'operator' : spec.kind;
    };
    const byCaller: Record<string, string[]> = {};
    for (const operation of found.values()) {
      const kind = described(operation.caller);
      byCaller[kind] = [...(byCaller[kind] ?? []), operation.name].sort();
    }
    expect(byCaller).toEqual({
      anonymous: [
        'account.code.ticket',
        'account.passkey.login',
        'account.passkey.login_options',
        'account.profile.recommend_name',
        'account.sign_out',
        'organisation.invitation.code_target',
        'organisation.invitation.preview',
      ],
      person: [
        'account.avatar.upload',
        'account.cancellation.check',
        'account.cancellation.confirm',
        'account.cancellation.ways',
        'account.code.ticket_signed_in',
        'account.data.export',
        'account.developer_app.create',
        'account.developer_app.delete',
        'account.developer_app.list',
        'account.developer_app.rotate_secret',
        'account.device.forget',
        'account.device.list',
        'account.factor.list',
        'account.identifier.bind',
        'account.identifier.change',
        'account.identity.leave',
        'account.identity.list',
        'account.identity.sign_in',
        'account.identity.switch',
        'account.language.save',
        'account.open_app.authorize',
        'account.open_app.revoke',
        'account.passkey.list',
        'account.passkey.register',
        'account.passkey.register_options',
        'account.passkey.remove',
        'account.passkey.rename',
        'account.password.change',
        'account.password.reset',
        'account.password.set',
        'account.picture.upload',
        'account.profile.defaults',
        'account.profile.remaining',
        'account.profile.update',
        'account.recovery_code.generate',
        'account.register.contact',
        'account.register.email',
        'account.register.email_code',
        'account.register.email_link',
        'account.register.email_v2',
        'account.register.mobile',
        'account.sign_in',
        'account.sign_in.email_code',
        'account.sign_in.email_password',
        'account.sign_in.enterprise_sso',
        'account.sign_in.mobile_code',
        'account.sign_in.password',
        'account.sign_in.qr',
        'account.sign_in.second_verify',
        'account.sign_in_change.disown',
        'account.sign_in_change.list',
        'account.step_up.verify',
        'account.third_party.link',
        'account.third_party.switch',
        'account.third_party.unlink',
        'account.totp.confirm',
        'account.totp.remove',
        'account.totp.start',
        'account.username.set',
        'account.username.set_with_password',
        'organisation.create.by_email',
        'organisation.create.by_mobile',
        'organisation.create.by_username',
        'organisation.identity.list',
        'organisation.invitation.accept',
        'organisation.list',
        'organisation.member.leave',
        'organisation.membership.accept',
      ],
      operator: [
        'operator.api_key.create',
        'operator.api_key.list',
        'operator.api_key.revoke',
        'operator.api_key.rotate',
        'operator.console.audit.list',
        'operator.console.organisations.freeze',
        'operator.console.organisations.get',
        'operator.console.organisations.list',
        'operator.console.organisations.members.list',
        'operator.console.users.factors.reset',
        'operator.console.users.freeze',
        'operator.console.users.get',
        'operator.console.users.linked_accounts.list',
        'operator.console.users.list',
        'operator.console.users.overview',
        'operator.console.users.sessions.list',
        'operator.console.users.sessions.revoke',
        'operator.console.users.unfreeze',
        'operator.picture.pending',
        'operator.picture.review',
        'operator.webhook.create',
        'operator.webhook.delete',
        'operator.webhook.deliveries',
        'operator.webhook.disable',
        'operator.webhook.enable',
        'operator.webhook.get',
        'operator.webhook.list',
        'operator.webhook.redeliver',
        'operator.webhook.rotate_secret',
        'operator.webhook.update',
      ],
      'identity(invitation:cancel)': ['organisation.invitation.cancel'],
      'identity(invitation:create)': [
        'organisation.invitation.create.chat',
        'organisation.invitation.create.email',
        'organisation.invitation.create.link',
        'organisation.invitation.create.mobile',
      ],
      'identity(invitation:read)': ['organisation.invitation.list'],
      'identity(invitation:update)': ['organisation.invitation.resend', 'organisation.invitation.update'],
      'identity(member)': [
        'organisation.api_key.create',
        'organisation.api_key.list',
        'organisation.api_key.revoke',
        'organisation.freeze',
        'organisation.info',
        'organisation.invitation.withdraw',
        'organisation.manager.transfer.abandon',
        'organisation.manager.transfer.check',
        'organisation.manager.transfer.confirm',
        'organisation.manager.transfer.pending',
        'organisation.manager.transfer.start',
        'organisation.member.permission.explain',
        'organisation.member.permissions',
        'organisation.member.rename',
        'organisation.resource.list',
        'organisation.webhook.create',
        'organisation.webhook.delete',
        'organisation.webhook.deliveries',
        'organisation.webhook.disable',
        'organisation.webhook.enable',
        'organisation.webhook.get',
        'organisation.webhook.list',
        'organisation.webhook.redeliver',
        'organisation.webhook.rotate_secret',
        'organisation.webhook.update',
      ],
      'identity(member:create)': ['organisation.member.add'],
      'identity(member:delete)': ['organisation.member.remove'],
      'identity(member:freeze)': ['organisation.member.freeze'],
      'identity(member:read)': ['organisation.member.list'],
      'identity(role:assign)': ['organisation.role.grant', 'organisation.role.revoke'],
      'identity(role:ban)': ['organisation.role.ban'],
      'identity(role:create)': ['organisation.role.create'],
      'identity(role:read)': [
        'organisation.role.info',
        'organisation.role.links',
        'organisation.role.list',
        'organisation.role.members',
      ],
      'identity(role:update)': ['organisation.role.update'],
      'identity(sso:manage)': [
        'organisation.domain.add',
        'organisation.domain.list',
        'organisation.domain.remove',
        'organisation.domain.verify',
        'organisation.sso_connection.info',
        'organisation.sso_connection.remove',
        'organisation.sso_connection.save',
        'organisation.sso_connection.save_saml',
        'organisation.sso_policy.info',
        'organisation.sso_policy.save',
      ],
      'identity(subject:update)': ['organisation.second_factor.set', 'organisation.update'],
      'apiKey(apps:read)': ['management.apps.get', 'management.apps.list'],
      'apiKey(apps:write)': [
        'management.apps.create',
        'management.apps.delete',
        'management.apps.rotate_secret',
        'management.apps.update',
      ],
      'apiKey(audit:read)': ['management.audit.list'],
      'apiKey(organisations:read)': [
        'management.organisations.get',
        'management.organisations.invitations.list',
        'management.organisations.list',
        'management.organisations.members.list',
        'management.organisations.roles.list',
      ],
      'apiKey(organisations:write)': ['management.organisations.invitations.revoke'],
      'apiKey(scim)': [
        'scim.discovery.read',
        'scim.groups.create',
        'scim.groups.delete',
        'scim.groups.get',
        'scim.groups.list',
        'scim.groups.patch',
        'scim.groups.replace',
        'scim.users.create',
        'scim.users.delete',
        'scim.users.get',
        'scim.users.list',
        'scim.users.patch',
        'scim.users.replace',
      ],
      'apiKey(users:read)': [
        'management.users.get',
        'management.users.linked_accounts.list',
        'management.users.list',
        'management.users.sessions.list',
      ],
      'apiKey(users:write)': [
        'management.users.create',
        'management.users.delete',
        'management.users.factors.reset',
        'management.users.freeze',
        'management.users.linked_accounts.unlink',
        'management.users.sessions.revoke',
        'management.users.unfreeze',
        'management.users.update',
      ],
      'apiKey(webhooks:write)': [
        'management.webhook.create',
        'management.webhook.delete',
        'management.webhook.deliveries',
        'management.webhook.disable',
        'management.webhook.enable',
        'management.webhook.get',
        'management.webhook.list',
        'management.webhook.redeliver',
        'management.webhook.rotate_secret',
        'management.webhook.update',
      ],
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

  it('no adapter reads an organisation’s members, roles or invitations on the app’s handle: the operation that acts on them reads them in its transaction', () => {
    // A logout in organisation mode read the session's identity (deputies) on app.db, then switched in
    // a transaction of its own: what it judged could change between the read and the switch.
    const root = join(import.meta.dirname, '../src');
    const adapters = ['flows', 'routes', 'adapters', 'http', 'plugins'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${dir}/${name.split('\\').join('/')}`),
    );
    const query =
      /\bapp\.db\s*\.(selectFrom|updateTable|insertInto|deleteFrom)\(\s*'(subjects|deputies|deputy_roles|roles|invitations|manager_transfers)'/;
    const readers = adapters.filter((file) => query.test(readFileSync(join(root, file), 'utf8')));
    // The audit log's page: a read with nothing to commit (no operation), the names of its entries.
    expect(readers).toEqual(['flows/audit-log.ts']);
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
