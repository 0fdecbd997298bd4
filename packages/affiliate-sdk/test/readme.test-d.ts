// The README's first example, verbatim: it must compile against the package as it is.
import { accountInfo, createAccountClient, isAccountError, passwordLogin } from '@portico/account-sdk';
import { it } from 'vitest';
import {
  affiliatePlugin,
  createRole,
  createSubjectByEmail,
  createUserWithRole,
  explainPermission,
  subjectLogin,
  subjectLoginList,
} from '../src/index';
import { OrganisationErrorCode } from '../src/protocol';

it("the README's example compiles", () => {
  async function example() {
    const client = createAccountClient({
      aid: 1128,
      baseUrl: 'https://passport.example.com',
      language: 'en',
    });
    client.use(affiliatePlugin()); // optional: 16xx failures always carry a zh/en description

    await passwordLogin(client, { email: 'ada@example.com', password: 'correct horse battery staple' });

    // 1. An organisation, with the signed-in account as its one manager.
    const org = await createSubjectByEmail(client, {
      email: 'ada@example.com', // must name the signed-in account
      subject_name: 'Example Ltd',
      deputy_name: 'Ada (manager)',
      base_infos: { city: 'Shenzhen' },
    });

    // 2. A role granting only what the manager holds, and Bob invited with it (by e-mail; he joins on accepting).
    await createRole(client, {
      subject_uid: org.sec_subject_uid,
      role_key: 'viewer',
      role_name: 'Viewer',
      permissions: ['member:read', 'role:read'],
    });
    const bob = await createUserWithRole(client, {
      subject_uid: org.sec_subject_uid,
      account: 'bob@example.com',
      deputy_name: 'Bob',
      role_key: 'viewer',
    });

    // 3. Once Bob has accepted: why does he have member:read?
    const why = await explainPermission(client, {
      subject_uid: org.sec_subject_uid,
      identity_id: bob.deputy_identity_id,
      permission: 'member:read',
    });
    console.log(why.roles.map((r) => r.role_key)); // ['viewer']

    // 4. Act as the organisation identity: a new session whose account/info and product token carry it.
    const { items } = await subjectLoginList(client);
    const mine = items.find((i) => i.sec_subject_uid === org.sec_subject_uid)!;
    try {
      await subjectLogin(client, {
        login_subject_uid: org.sec_subject_uid,
        user_identity_id: mine.user_identity_id,
      });
      console.log((await accountInfo(client)).org); // { sec_subject_uid, user_identity_id, is_manager, permissions }
    } catch (error) {
      if (isAccountError(error, 'response') && error.error_code === OrganisationErrorCode.memberFrozen)
        console.warn(error.description); // 'This member identity is frozen'
      else throw error;
    }
  }
  void example;
});
