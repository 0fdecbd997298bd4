import { decodeMixedFields, ErrorCode } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, type Route } from '../../account-react/test/support/fake-passport';
import { AdminConsole } from '../src';
import { renderInProvider } from './support/app';

const CONSOLE = '/passport/web/operator/console/';
const KEYS = '/passport/web/operator/api_keys/list/';
const CREATE_KEY = '/passport/web/operator/api_keys/create/';
const REVOKE_KEY = '/passport/web/operator/api_keys/revoke/';
const HOOKS = '/passport/web/operator/webhooks/list/';
const DELIVERIES = '/passport/web/operator/webhooks/deliveries/';
const REDELIVER = '/passport/web/operator/webhooks/redeliver/';
const ROTATE_KEY = '/passport/web/operator/api_keys/rotate/';
const HOOK = (capability: string) => `/passport/web/operator/webhooks/${capability}/`;

const ada = {
  id: 'u1',
  mobile: '+8613800000001',
  email: 'ada@example.com',
  username: 'ada',
  name: 'Ada',
  frozen: false,
  has_password: true,
  created_at: 1_767_225_600_000,
};
const revokedEvent = {
  id: '9',
  type: 'account.sessions_revoked',
  version: 1,
  actor: { kind: 'person', userId: 'op' },
  organisation_id: null,
  user_id: 'u1',
  data: { count: 2 },
  ip: null,
  occurred_at: 1_767_225_700_000,
};
const key = {
  id: 'k1',
  name: 'billing',
  prefix: 'portico_sk_abcd',
  scopes: ['users:read'],
  created_at: 1,
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
};

/** A passport whose console answers for one operator; `overrides` replace single routes. */
function operatorPassport(overrides: Record<string, Route> = {}) {
  let frozen = false;
  let events: (typeof revokedEvent)[] = [];
  let keys: (Omit<typeof key, 'revoked_at' | 'expires_at'> & {
    revoked_at: number | null;
    expires_at: number | null;
  })[] = [key];
  const routes: Record<string, Route> = {
    [KEYS]: () => ok({ keys }),
    [CREATE_KEY]: (request) => {
      const created = {
        ...key,
        id: 'k2',
        name: request.body.name ?? '',
        scopes: (request.body.scopes ?? '').split(' '),
      };
      keys = [created, ...keys];
      return ok({ ...created, key: 'portico_sk_secret-shown-once' });
    },
    [ROTATE_KEY]: (request) => {
      const created = { ...key, id: 'k3' };
      keys = [created, ...keys.map((k) => (k.id === request.body.id ? { ...k, expires_at: 3 } : k))];
      return ok({ ...created, key: 'portico_sk_rotated-shown-once' });
    },
    [REVOKE_KEY]: (request) => {
      keys = keys.map((k) => (k.id === request.body.id ? { ...k, revoked_at: 2 } : k));
      return ok(keys.find((k) => k.id === request.body.id));
    },
    [`${CONSOLE}audit/list/`]: (request) =>
      ok({
        events: request.query.cursor ? [{ ...revokedEvent, id: '1', type: 'account.created' }] : events,
        next_cursor: request.query.cursor || events.length === 0 ? null : '9',
      }),
    [`${CONSOLE}users/list/`]: (request) =>
      ok({ users: request.query.query === '+86138' ? [{ ...ada, frozen }] : [], next_cursor: null }),
    [`${CONSOLE}users/get/`]: () => ok({ ...ada, frozen }),
    [`${CONSOLE}users/overview/`]: () =>
      ok({
        factors: { totp: true, recovery_codes: 8, passkeys: 1 },
        devices: [],
        organisations: [{ id: 's1', name: 'Acme', member_name: 'Ada L', manager: true, frozen: false }],
      }),
    [`${CONSOLE}users/sessions/`]: () =>
      ok({
        sessions: [
          {
            id: 'abcd1234',
            created_at: 1,
            last_seen_at: 2,
            expires_at: 3,
            ip: '203.0.113.9',
            user_agent: 'Firefox',
          },
        ],
      }),
    [`${CONSOLE}users/linked_accounts/`]: () => ok({ linked_accounts: [] }),
    [`${CONSOLE}users/revoke_sessions/`]: () => {
      events = [revokedEvent];
      return ok({ revoked: 2 });
    },
    [`${CONSOLE}users/freeze/`]: () => {
      frozen = true;
      return ok({ id: 'u1', frozen: true });
    },
    ...overrides,
  };
  return routes;
}

describe('the admin console', () => {
  it('finds a user, shows the detail, and ends their sessions only once confirmed', async () => {
    const passport = fakePassport(operatorPassport());
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    expect(await screen.findByRole('tab', { name: 'Users', selected: true })).toBeTruthy();
    expect(screen.getByText(/Type the start of a mobile/)).toBeTruthy();

    await user.type(screen.getByLabelText('Mobile, e-mail, username or user id'), '+86138');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await user.click(await screen.findByRole('button', { name: 'Open +8613800000001' }));

    const detail = within(await screen.findByRole('region', { name: /User details/ }));
    expect(detail.getByText('ada@example.com')).toBeTruthy();
    expect(detail.getByRole('table', { name: 'Sessions' })).toBeTruthy();
    expect(detail.getByText('203.0.113.9')).toBeTruthy();
    expect(detail.getByText(/Acme — Ada L \(Manager\)/)).toBeTruthy();
    expect(detail.getByText('No linked account.')).toBeTruthy();

    // Cancel first: nothing is sent.
    await user.click(detail.getByRole('button', { name: 'End all sessions' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End every session of +8613800000001?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(passport.to(`${CONSOLE}users/revoke_sessions/`)).toHaveLength(0);

    await user.click(detail.getByRole('button', { name: 'End all sessions' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'End all sessions' }),
    );
    expect(await detail.findByText('2 sessions ended.')).toBeTruthy();
    expect(passport.to(`${CONSOLE}users/revoke_sessions/`)[0]?.body).toMatchObject({ id: 'u1' });
    // The change refreshes the detail's audit trail.
    expect(await detail.findByText('account.sessions_revoked')).toBeTruthy();
  });

  it('says when nobody matches, and bans a user after the confirmation', async () => {
    const passport = fakePassport(operatorPassport());
    renderInProvider(passport.client, <AdminConsole />, 'zh');
    const user = userEvent.setup();
    const search = await screen.findByLabelText('手机号、邮箱、用户名或用户 ID');
    await user.type(search, 'nobody');
    await user.click(screen.getByRole('button', { name: '查找' }));
    expect(await screen.findByText('没有找到用户。')).toBeTruthy();

    await user.clear(search);
    await user.type(search, '+86138');
    await user.click(screen.getByRole('button', { name: '查找' }));
    await user.click(await screen.findByRole('button', { name: '查看 +8613800000001' }));
    const detail = within(await screen.findByRole('region', { name: /用户详情/ }));
    await user.click(await detail.findByRole('button', { name: '封禁' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '封禁' }));
    expect(await detail.findByText('已封禁。')).toBeTruthy();
    expect(await detail.findByRole('button', { name: '解封' })).toBeTruthy();
  });

  it('creates an API key shown once, and revokes one after the confirmation', async () => {
    const passport = fakePassport(operatorPassport());
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'API keys' }));
    const form = within(screen.getByRole('form', { name: 'Create an API key' }));
    await user.type(form.getByLabelText('Name'), 'reports');
    await user.click(form.getByRole('checkbox', { name: /Read the audit log/ }));
    await user.click(form.getByRole('button', { name: 'Create key' }));
    expect(await form.findByText('portico_sk_secret-shown-once')).toBeTruthy();
    expect(passport.to(CREATE_KEY)[0]?.body).toMatchObject({
      name: 'reports',
      scopes: 'users:read audit:read',
    });
    expect(await screen.findByRole('cell', { name: 'reports' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Revoke billing' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    await expect.poll(() => passport.to(REVOKE_KEY)[0]?.body.id).toBe('k1');
    expect(await screen.findByRole('cell', { name: 'Revoked' })).toBeTruthy();
  });

  it('shows an endpoint’s delivery log with the response excerpt and redelivers', async () => {
    const passport = fakePassport(
      operatorPassport({
        [HOOKS]: () =>
          ok({
            endpoints: [
              {
                id: 'w1',
                url: 'https://hooks.example.com/in',
                description: '',
                event_types: [],
                organisation_id: null,
                enabled: true,
                disabled_reason: null,
                failing_since: null,
                previous_secret_until: null,
                created_at: 1,
                updated_at: 1,
              },
            ],
          }),
        [DELIVERIES]: () =>
          ok({
            deliveries: [
              {
                id: 'd1',
                event_id: 'e1',
                event_type: 'account.frozen',
                stream: 'user:u1',
                status: 'failed',
                attempts: 3,
                next_attempt_at: null,
                last_status: 500,
                last_latency_ms: 42,
                last_response: 'receiver broke',
                last_error: null,
                created_at: 1,
                delivered_at: null,
                history: [],
              },
            ],
            next_cursor: null,
          }),
        [REDELIVER]: () => ok({}),
      }),
    );
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Webhooks' }));
    await user.click(await screen.findByRole('button', { name: 'Deliveries: https://hooks.example.com/in' }));
    const log = within(await screen.findByRole('region', { name: /Delivery log/ }));
    expect(
      await log.findByRole('row', { name: /account.frozen Failed 3 500 42 receiver broke/ }),
    ).toBeTruthy();
    await user.click(log.getByRole('button', { name: 'Redeliver account.frozen' }));
    await expect.poll(() => passport.to(REDELIVER)[0]?.body).toMatchObject({ id: 'w1', delivery_id: 'd1' });
  });

  it('rotates a key only once confirmed, showing the new key once', async () => {
    const passport = fakePassport(operatorPassport());
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'API keys' }));
    await user.click(await screen.findByRole('button', { name: 'Rotate billing' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Rotate the key billing?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(passport.to(ROTATE_KEY)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Rotate billing' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Rotate' }));
    await expect.poll(() => passport.to(ROTATE_KEY)[0]?.body.id).toBe('k1');
    expect(await screen.findByText('portico_sk_rotated-shown-once')).toBeTruthy();
  });

  it('edits, disables, rotates the secret of and deletes an endpoint, the destructive ones confirmed; pages its log', async () => {
    let endpoint = {
      id: 'w1',
      url: 'https://hooks.example.com/in',
      description: '',
      event_types: [] as string[],
      organisation_id: null,
      enabled: true,
      disabled_reason: null as string | null,
      failing_since: null,
      previous_secret_until: null,
      created_at: 1,
      updated_at: 1,
    };
    let gone = false;
    const delivery = (id: string, type: string) => ({
      id,
      event_id: `e-${id}`,
      event_type: type,
      stream: 'user:u1',
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      last_status: 204,
      last_latency_ms: 5,
      last_response: '',
      last_error: null,
      created_at: 1,
      delivered_at: 1,
      history: [],
    });
    const passport = fakePassport(
      operatorPassport({
        [HOOKS]: () => ok({ endpoints: gone ? [] : [endpoint] }),
        [HOOK('update')]: (request) => {
          endpoint = {
            ...endpoint,
            url: request.body.url ?? endpoint.url,
            description: request.body.description ?? '',
            event_types: (request.body.event_types ?? '').split(' ').filter(Boolean),
          };
          return ok(endpoint);
        },
        [HOOK('disable')]: () => {
          endpoint = { ...endpoint, enabled: false, disabled_reason: 'manual' };
          return ok(endpoint);
        },
        [HOOK('enable')]: () => {
          endpoint = { ...endpoint, enabled: true, disabled_reason: null };
          return ok(endpoint);
        },
        [HOOK('rotate_secret')]: () => ok({ ...endpoint, secret: 'whsec_rotated-shown-once' }),
        [HOOK('delete')]: () => {
          gone = true;
          return ok({ id: 'w1', deleted: true });
        },
        [DELIVERIES]: (request) =>
          ok(
            request.query.cursor === '7'
              ? { deliveries: [delivery('d0', 'account.created')], next_cursor: null }
              : { deliveries: [delivery('d1', 'account.frozen')], next_cursor: '7' },
          ),
      }),
    );
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Webhooks' }));

    // The log, page by page, by the server's cursor.
    await user.click(await screen.findByRole('button', { name: 'Deliveries: https://hooks.example.com/in' }));
    const log = within(await screen.findByRole('region', { name: /Delivery log/ }));
    expect(await log.findByRole('row', { name: /account.frozen Succeeded/ })).toBeTruthy();
    await user.click(log.getByRole('button', { name: 'Next page' }));
    expect(await log.findByRole('row', { name: /account.created Succeeded/ })).toBeTruthy();
    expect(passport.to(DELIVERIES).at(-1)?.query).toMatchObject({ id: 'w1', cursor: '7' });
    expect(log.queryByRole('button', { name: 'Next page' })).toBeNull();
    await user.click(log.getByRole('button', { name: 'First page' }));
    expect(await log.findByRole('row', { name: /account.frozen Succeeded/ })).toBeTruthy();

    // Edit: the form starts from the endpoint and sends the change.
    await user.click(screen.getByRole('button', { name: 'Edit https://hooks.example.com/in' }));
    const form = within(await screen.findByRole('form', { name: 'Edit the endpoint' }));
    await user.clear(form.getByLabelText('Receiver URL'));
    await user.type(form.getByLabelText('Receiver URL'), 'https://hooks.example.com/v2');
    await user.type(form.getByLabelText(/Event types/), 'account.');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await expect
      .poll(() => passport.to(HOOK('update'))[0]?.body)
      .toMatchObject({ id: 'w1', url: 'https://hooks.example.com/v2', event_types: 'account.' });
    expect(await screen.findByRole('cell', { name: 'account.' })).toBeTruthy();

    // Disable: Cancel sends nothing; confirmed, it is sent; then Enable needs no confirmation.
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(passport.to(HOOK('disable'))).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    const disable = await screen.findByRole('alertdialog', {
      name: 'Disable the endpoint https://hooks.example.com/v2?',
    });
    await user.click(within(disable).getByRole('button', { name: 'Disable' }));
    await expect.poll(() => passport.to(HOOK('disable')).length).toBe(1);
    await user.click(await screen.findByRole('button', { name: 'Enable https://hooks.example.com/v2' }));
    await expect.poll(() => passport.to(HOOK('enable')).length).toBe(1);

    // Rotate the secret: shown once.
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Rotate secret' }),
    );
    expect(await screen.findByText('whsec_rotated-shown-once')).toBeTruthy();

    // Delete: confirmed, the endpoint and its open log go.
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await expect.poll(() => passport.to(HOOK('delete'))[0]?.body.id).toBe('w1');
    expect(await screen.findByText('No webhook endpoint yet.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Delivery log/ })).toBeNull();
  });

  it('pages a search with its cursor', async () => {
    const passport = fakePassport(
      operatorPassport({
        [`${CONSOLE}users/list/`]: (request) =>
          request.query.cursor === 'c2'
            ? ok({ users: [{ ...ada, id: 'u2', mobile: '+8613800000002' }], next_cursor: null })
            : ok({ users: [ada], next_cursor: 'c2' }),
      }),
    );
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Mobile, e-mail, username or user id'), '+86138');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await user.click(await screen.findByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('button', { name: 'Open +8613800000002' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(await screen.findByRole('button', { name: 'Open +8613800000001' })).toBeTruthy();
  });

  it('filters the audit log, leaving blank filters out', async () => {
    const passport = fakePassport(operatorPassport());
    renderInProvider(passport.client, <AdminConsole />, 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    expect(await screen.findByText('No event matches.')).toBeTruthy();
    const form = within(screen.getByRole('form', { name: 'Filter the audit log' }));
    await user.type(form.getByLabelText('Event type (e.g. account.)'), 'account.');
    await user.click(form.getByRole('button', { name: 'Filter' }));
    // The SDK mixes `type` as it does in every call (the passport decodes it): read it decoded.
    const lastQuery = () => decodeMixedFields(passport.to(`${CONSOLE}audit/list/`).at(-1)?.query ?? {});
    await expect.poll(() => lastQuery().type).toBe('account.');
    // Blank filters are left out, not sent empty.
    expect(lastQuery()).not.toHaveProperty('actor');
  });

  it('tells someone who is not an operator that the console is not theirs, without asking for a step-up', async () => {
    const passport = fakePassport({ [KEYS]: () => fail(ErrorCode.notAnOperator) });
    renderInProvider(passport.client, <AdminConsole />, 'en');
    expect(await screen.findByText('Only operators can use the admin console.')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(passport.to(`${CONSOLE}audit/list/`)).toHaveLength(0);
  });
});
