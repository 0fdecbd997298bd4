import { createAccountClient, isAccountError } from '@portico/account-sdk';
import { mixDecode } from '@portico/account-sdk/protocol';
import { describe, expect, it } from 'vitest';
import * as affiliate from '../src';
import { affiliatePaths, OrganisationErrorCode } from '../src/protocol';

/** A client over a fetch that records each request and answers `answer`. */
function recording(answer: unknown = { message: 'success', data: {} }) {
  const seen: Request[] = [];
  const client = createAccountClient({
    aid: 1128,
    baseUrl: 'https://passport.example.com',
    language: 'en',
    document: { cookie: '' },
    fingerprint: () => 'verify_x',
    fetch: async (input, init) => {
      seen.push(new Request(input, init));
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, seen };
}

describe('the affiliate calls', () => {
  it('list with the spec page defaults (page 1, 10 a page) as GET query parameters', async () => {
    const { client, seen } = recording({ message: 'success', data: { items: [] } });
    await affiliate.listRoles(client, { subject_uid: 's1' });
    const url = new URL(seen[0]!.url);
    expect(seen[0]!.method).toBe('GET');
    expect(url.pathname).toBe(affiliatePaths.roleList);
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('page_size')).toBe('10');
    expect(url.searchParams.get('subject_uid')).toBe('s1');
  });

  it('list invitations with the page in the path (page 1 and 10 a page by default) and the state filter', async () => {
    const { client, seen } = recording({ message: 'success', data: { items: [] } });
    await affiliate.listInvitations(client, { subject_uid: 's1' });
    await affiliate.listInvitations(client, { subject_uid: 's1', page: 3, page_size: 5, state: 'expired' });
    const [first, third] = seen.map((r) => new URL(r.url));
    expect(seen.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(first!.pathname).toBe(`${affiliatePaths.inviteList}1/`);
    expect(first!.searchParams.get('page_size')).toBe('10');
    expect(first!.searchParams.has('page')).toBe(false);
    expect(third!.pathname).toBe(`${affiliatePaths.inviteList}3/`);
    expect(third!.searchParams.get('page_size')).toBe('5');
    expect(third!.searchParams.get('state')).toBe('expired');
  });

  it('send subject_name, base_infos (as JSON), identity_card and real_name through the mix codec', async () => {
    const { client, seen } = recording();
    await affiliate.createSubjectByEmail(client, {
      email: 'a@example.com',
      subject_name: '示例公司',
      deputy_name: 'Ada',
      base_infos: { city: 'Shenzhen' },
      detail_infos: { size: 10 },
      identity_card: '110101199003070000',
      real_name: '张三',
    });
    const body = new URLSearchParams(await seen[0]!.text());
    expect(new URL(seen[0]!.url).pathname).toBe(affiliatePaths.subjectCreateByEmail);
    expect(body.get('mix_mode')).toBe('1');
    expect(mixDecode(body.get('subject_name')!)).toBe('示例公司');
    expect(JSON.parse(mixDecode(body.get('base_infos')!))).toEqual({ city: 'Shenzhen' });
    expect(mixDecode(body.get('identity_card')!)).toBe('110101199003070000');
    expect(mixDecode(body.get('real_name')!)).toBe('张三');
    expect(JSON.parse(body.get('detail_infos')!)).toEqual({ size: 10 });
  });

  it('send permission and identity lists as JSON arrays', async () => {
    const { client, seen } = recording();
    await affiliate.addUserRoles(client, {
      subject_uid: 's',
      role_key: 'r',
      sec_user_identity_ids: ['a', 'b'],
    });
    const body = new URLSearchParams(await seen[0]!.text());
    expect(JSON.parse(body.get('sec_user_identity_ids')!)).toEqual(['a', 'b']);
  });

  it('ban a role by default and switch members at the account SDK path', async () => {
    const { client, seen } = recording();
    await affiliate.banRole(client, { subject_uid: 's', role_key: 'r' });
    await affiliate.switchMember(client, { to_sec_member_id: 'm' });
    expect(new URLSearchParams(await seen[0]!.text()).get('is_banned')).toBe('1');
    expect(new URL(seen[1]!.url).pathname).toBe(affiliatePaths.memberSwitch);
  });

  it('affiliatePlugin gives a 16xx failure without a description its text in the client language', async () => {
    const { client } = recording({
      message: 'error',
      data: { error_code: OrganisationErrorCode.roleBanned, description: '' },
    });
    client.use(affiliate.affiliatePlugin());
    const error = await affiliate.roleInfo(client, { subject_uid: 's', role_key: 'r' }).catch((e) => e);
    expect(isAccountError(error, 'response')).toBe(true);
    expect(error.error_code).toBe(1608);
    expect(error.description).toBe('This role is banned');
  });
});
