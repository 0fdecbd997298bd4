import { webPaths } from '@portico/account-sdk/protocol';
import { affiliatePaths as p } from '@portico/affiliate-sdk/protocol';
import { useQuery } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  identitiesQueryOptions,
  invitationsQueryOptions,
  membersQueryOptions,
  organisationQueryKeys,
  rolesQueryOptions,
  useAccountClient,
  useAnswerMembership,
  useLeaveOrganisation,
  useManagerTransfer,
  useRevokeRole,
  useSession,
  useUpdateRole,
} from '../src';
import { fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderAccountHook } from './support/render';

const page = (items: unknown[]) => ok({ items, total: items.length, page: 1, page_size: 100 });

/** A console's lists of two organisations, and the session, each counted by how often it was fetched. */
function console2() {
  const passport = fakePassport({
    [webPaths.accountInfo]: () => ok(signedInAccount),
    [p.deputyList]: () => page([]),
    [p.roleList]: () => page([]),
    [`${p.inviteList}1/`]: () => page([]),
    [p.roleUpdate]: () => ok({ role_key: 'viewer' }),
    [p.userRoleDelete]: () => ok({ removed: 1 }),
    [p.deputyLeave]: () => ok({ left: true }),
    '/passport/member/switch/': () => ok({}),
    [p.managerVerifyNew]: () => ok({ transfer_ticket: 't' }),
    [p.managerVerifyOld]: () => ok({ transfer_ticket: 'a' }),
    [p.managerTransfer]: () => ok({ user_identity_id: 'd2' }),
    [p.managerPending]: () => ok({ transfer: null, manager: null }),
    [p.subjectLoginList]: () => ok({ items: [] }),
    [p.membershipAccept]: () => ok({ sec_subject_uid: 's2', user_identity_id: 'd9', accepted: true }),
  });
  function useConsole() {
    const client = useAccountClient();
    return {
      session: useSession(),
      members: useQuery(membersQueryOptions(client, 's1')),
      roles: useQuery(rolesQueryOptions(client, 's1')),
      invitations: useQuery(invitationsQueryOptions(client, 's1')),
      otherMembers: useQuery(membersQueryOptions(client, 's2')),
      identities: useQuery(identitiesQueryOptions(client)),
      answer: useAnswerMembership(),
      updateRole: useUpdateRole('s1'),
      revokeRole: useRevokeRole('s1'),
      leave: useLeaveOrganisation('s2'),
      transfer: useManagerTransfer('s1'),
    };
  }
  const rendered = renderAccountHook(useConsole, { client: passport.client, strict: false });
  const fetched = (path: string) => passport.to(path).length;
  return { ...rendered, passport, fetched };
}

describe('organisation changes refresh only what they touch', () => {
  it('a role’s new permissions refetch the roles and the session, not the members or invitations', async () => {
    const { result, fetched } = console2();
    await waitFor(() =>
      expect(result.current.invitations.isSuccess && result.current.session.isSuccess).toBe(true),
    );
    const before = { members: fetched(p.deputyList), invites: fetched(`${p.inviteList}1/`) };
    const roles = fetched(p.roleList);
    const sessions = fetched(webPaths.accountInfo);
    await act(() =>
      result.current.updateRole.mutateAsync({ role_key: 'viewer', permissions: ['member:read'] }),
    );
    expect(fetched(p.roleList)).toBe(roles + 1);
    expect(fetched(webPaths.accountInfo)).toBe(sessions + 1);
    expect(fetched(p.deputyList)).toBe(before.members);
    expect(fetched(`${p.inviteList}1/`)).toBe(before.invites);
  });

  it('taking a role from a member refetches that organisation’s members, not another’s', async () => {
    const { result, passport, fetched } = console2();
    await waitFor(() =>
      expect(result.current.otherMembers.isSuccess && result.current.members.isSuccess).toBe(true),
    );
    const members = () => passport.to(p.deputyList).map((r) => r.query.sec_subject_uid);
    const before = members();
    await act(() =>
      result.current.revokeRole.mutateAsync({ role_key: 'viewer', sec_user_identity_ids: ['d2'] }),
    );
    expect(members().slice(before.length)).toEqual(['s1']);
    expect(fetched(p.roleList)).toBe(1);
  });

  it('leaving drops what is cached about that organisation and asks for the session again', async () => {
    const { result, queryClient, fetched } = console2();
    await waitFor(() => expect(result.current.otherMembers.isSuccess).toBe(true));
    const sessions = fetched(webPaths.accountInfo);
    await act(() => result.current.leave.mutateAsync());
    expect(fetched(webPaths.accountInfo)).toBe(sessions + 1);
    expect(queryClient.getQueryCache().findAll({ queryKey: organisationQueryKeys.of('s2') })).toHaveLength(0);
    expect(queryClient.getQueryData(organisationQueryKeys.members('s1'))).toBeDefined();
  });

  it('the new manager’s acceptance refreshes the transfer, the members and the session', async () => {
    const { result, fetched } = console2();
    await waitFor(() =>
      expect(result.current.members.isSuccess && result.current.session.isSuccess).toBe(true),
    );
    const members = fetched(p.deputyList);
    const sessions = fetched(webPaths.accountInfo);
    await act(() => result.current.transfer.accept('123456'));
    expect(fetched(p.managerTransfer)).toBe(1);
    expect(fetched(p.deputyList)).toBeGreaterThan(members);
    expect(fetched(webPaths.accountInfo)).toBe(sessions + 1);
    expect(fetched(`${p.inviteList}1/`)).toBe(1);
  });

  it('proving as the manager reads the members afresh: whoever joined since is a candidate', async () => {
    const { result, passport, fetched } = console2();
    await waitFor(() =>
      expect(result.current.members.isSuccess && result.current.roles.isSuccess).toBe(true),
    );
    const members = () => passport.to(p.deputyList).filter((r) => r.query.sec_subject_uid === 's1').length;
    const before = members();
    const roles = fetched(p.roleList);
    await act(() => result.current.transfer.prove('123456'));
    expect(members()).toBe(before + 1);
    expect(fetched(p.roleList)).toBe(roles);
  });

  it('answering a waiting membership refreshes the identities and that organisation’s members only', async () => {
    const { result, passport, fetched } = console2();
    await waitFor(() =>
      expect(
        result.current.identities.isSuccess &&
          result.current.members.isSuccess &&
          result.current.otherMembers.isSuccess,
      ).toBe(true),
    );
    const identities = fetched(p.subjectLoginList);
    const members = () => passport.to(p.deputyList).map((r) => r.query.sec_subject_uid);
    const before = members().length;
    const sessions = fetched(webPaths.accountInfo);
    await act(() => result.current.answer.mutateAsync({ subject_uid: 's2' }));
    expect(passport.to(p.membershipAccept).map((r) => r.body.subject_uid)).toEqual(['s2']);
    expect(fetched(p.subjectLoginList)).toBe(identities + 1);
    expect(members().slice(before)).toEqual(['s2']);
    expect(fetched(webPaths.accountInfo)).toBe(sessions);
  });
});
