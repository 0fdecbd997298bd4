import { webPaths } from '@portico/account-sdk/protocol';
import { OrganisationErrorCode, affiliatePaths as p } from '@portico/affiliate-sdk/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { InvitationScreen } from '../src';
import { renderInProvider } from './support/app';

const preview = {
  subject_name: 'Acme',
  inviter_name: 'Boss',
  role_names: [],
  channel: 'mobile',
  contact: '138****0000',
};

describe('the invitation screen', () => {
  it('words an organisation failure in the page language, whatever language the server answered in', async () => {
    // The client was made in zh (the server's description is Chinese); the person reads English.
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [p.inviteCheck]: () => fail(OrganisationErrorCode.invitationUsed, '邀请已被接受，不能再次使用'),
    });
    renderInProvider(
      passport.client,
      <InvitationScreen ticket="t" here="/invite?t" onJoined={() => {}} />,
      'en',
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This invitation has already been accepted',
    );
  });

  it('shows only that the person joined once they accepted', async () => {
    let accepted = false;
    const passport = fakePassport({
      [webPaths.accountInfo]: () =>
        ok({ ...signedInAccount, ...(accepted ? { org: { user_identity_id: 'd9' } } : {}) }),
      // The spent invitation is refused if anything looks at it again.
      [p.inviteCheck]: () => (accepted ? fail(OrganisationErrorCode.invitationUsed) : ok({ ...preview })),
      [p.inviteAccept]: () => {
        accepted = true;
        return ok({
          ...signedInAccount,
          org: { user_identity_id: 'd9', subject_name: 'Acme' },
          next_url: null,
        });
      },
    });
    renderInProvider(
      passport.client,
      <InvitationScreen ticket="t" here="/invite?t" onJoined={() => {}} />,
      'en',
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    expect((await screen.findByRole('status')).textContent).toContain('You joined Acme.');
    // The session was asked again after joining (the new identity is active).
    await expect.poll(() => passport.to(webPaths.accountInfo).length).toBeGreaterThan(1);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(passport.to(p.inviteCheck)).toHaveLength(1);
  });
});
