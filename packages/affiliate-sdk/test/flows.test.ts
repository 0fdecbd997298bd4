import { createAccountClient } from '@portico/account-sdk';
import { mixDecode } from '@portico/account-sdk/protocol';
import { describe, expect, it } from 'vitest';
import { createInvitationAcceptance, createManagerTransfer, leaveOrganisation } from '../src';
import { affiliatePaths as p } from '../src/protocol';

/** A client whose passport answers per path (unknown paths fail with 1005) and records each request's form. */
function passport(routes: Record<string, (form: URLSearchParams) => unknown>) {
  const seen: { path: string; form: URLSearchParams }[] = [];
  const client = createAccountClient({
    aid: 1128,
    baseUrl: 'https://passport.example.com',
    language: 'en',
    document: { cookie: '' },
    fingerprint: () => 'verify_x',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const form = request.method === 'GET' ? url.searchParams : new URLSearchParams(await request.text());
      seen.push({ path: url.pathname, form });
      const route = routes[url.pathname];
      const answer = route
        ? { message: 'success', data: route(form) }
        : { message: 'error', data: { error_code: 1005, description: 'not found' } };
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, seen, paths: () => seen.map((s) => s.path) };
}

const pending = { transfer_id: 't1', role: 'from', to_name: 'Bo', from_name: 'Ada' };

describe('the manager transfer flow', () => {
  it('holds the ticket the manager’s code buys and spends it once, naming the new manager', async () => {
    const { client, seen } = passport({
      [p.managerSendOldCode]: () => ({ contact: 'a***@example.com', retry_time: 60, expires_in: 300 }),
      [p.managerVerifyOld]: () => ({ transfer_ticket: 'ticket-1' }),
      [p.managerStart]: () => pending,
    });
    const flow = createManagerTransfer(client, 's1');
    const steps: string[] = [];
    flow.subscribe(() => steps.push(flow.getSnapshot().step));
    await flow.sendCode('from');
    expect(flow.getSnapshot().codeSentTo).toBe('a***@example.com');
    await flow.prove('123456');
    expect(flow.getSnapshot()).toMatchObject({ step: 'choose', busy: false, codeSentTo: null });
    await expect(flow.start('d2')).resolves.toMatchObject({ transfer_id: 't1' });
    const start = seen.find((s) => s.path === p.managerStart)!.form;
    expect(start.get('transfer_ticket')).toBe('ticket-1');
    expect(start.get('user_identity_id')).toBe('d2');
    expect(flow.getSnapshot().step).toBe('prove');
    expect(steps).toContain('choose');
  });

  it('says when the next send is taken, from the send’s retry_time, for a countdown', async () => {
    const { client } = passport({
      [p.managerSendOldCode]: () => ({ contact: '138****0000', retry_time: 60, expires_in: 300 }),
    });
    const flow = createManagerTransfer(client, 's1');
    expect(flow.getSnapshot().sendAllowedAt).toBe(0);
    const before = Date.now();
    await flow.sendCode('from');
    const at = flow.getSnapshot().sendAllowedAt;
    expect(at).toBeGreaterThanOrEqual(before + 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it('accepts as the new manager: verifies the code, then commits with the ticket it bought', async () => {
    const { client, seen, paths } = passport({
      [p.managerVerifyNew]: () => ({ transfer_ticket: 'ticket-2' }),
      [p.managerTransfer]: () => ({ user_identity_id: 'd2', is_manager: true }),
    });
    const flow = createManagerTransfer(client, 's1');
    await expect(flow.accept('654321')).resolves.toMatchObject({ is_manager: true });
    expect(paths()).toEqual([p.managerVerifyNew, p.managerTransfer]);
    expect(seen[1]!.form.get('transfer_ticket')).toBe('ticket-2');
  });

  it('keeps a failed step’s error (and rethrows it); the next step clears it', async () => {
    const { client } = passport({ [p.managerAbandon]: () => ({ abandoned: true }) });
    const flow = createManagerTransfer(client, 's1');
    await expect(flow.prove('000000')).rejects.toMatchObject({ error_code: 1005 });
    expect(flow.getSnapshot()).toMatchObject({ step: 'prove', busy: false });
    expect(flow.getSnapshot().error).toMatchObject({ error_code: 1005 });
    await flow.abandon();
    expect(flow.getSnapshot().error).toBeNull();
  });
});

describe('the invitation acceptance flow', () => {
  const preview = {
    subject_name: 'Acme',
    inviter_name: 'Ada',
    role_names: [],
    channel: 'email',
    contact: 'b***',
  };

  it('checks, sends the code and registers while accepting with the code and the password', async () => {
    const { client, seen } = passport({
      [p.inviteCheck]: () => preview,
      [p.inviteSendCode]: () => ({ contact: 'b***@example.com', retry_time: 60, expires_in: 300 }),
      [p.inviteAccept]: () => ({
        user_id: '7',
        new_user: true,
        org: { subject_name: 'Acme' },
        next_url: null,
      }),
    });
    const flow = createInvitationAcceptance(client, 'inv-1');
    await flow.check();
    expect(flow.getSnapshot().preview).toMatchObject({ subject_name: 'Acme' });
    await flow.sendCode();
    expect(flow.getSnapshot().codeSentTo).toBe('b***@example.com');
    await flow.accept({ code: '123456', password: 'a long password' });
    expect(flow.getSnapshot().joined).toMatchObject({ new_user: true });
    const accept = seen.find((s) => s.path === p.inviteAccept)!.form;
    expect(accept.get('invite_ticket')).toBe('inv-1');
    // The code and the password travel mix-encoded, as every account SDK call sends them.
    expect(mixDecode(accept.get('code')!)).toBe('123456');
    expect(mixDecode(accept.get('password')!)).toBe('a long password');
  });

  it('accepts signed in with the ticket alone', async () => {
    const { client, seen } = passport({
      [p.inviteAccept]: () => ({
        user_id: '7',
        new_user: false,
        org: { subject_name: 'Acme' },
        next_url: '/org',
      }),
    });
    await createInvitationAcceptance(client, 'inv-2').accept();
    expect([...seen[0]!.form.keys()].filter((k) => k === 'code' || k === 'password')).toEqual([]);
  });
});

describe('leaving an organisation', () => {
  it('acts as the personal identity first, so the session that leaves stays signed in', async () => {
    const { client, seen, paths } = passport({
      '/passport/member/switch/': () => ({}),
      [p.deputyLeave]: () => ({ left: true }),
    });
    await expect(leaveOrganisation(client, { sec_subject_uid: 's1' })).resolves.toEqual({ left: true });
    expect(paths()).toEqual(['/passport/member/switch/', p.deputyLeave]);
    expect(seen[0]!.form.get('to_sec_member_id')).toBe('0');
    expect(seen[1]!.form.get('sec_subject_uid')).toBe('s1');
  });
});
