import { createAccountClient, isAccountError } from '@portico/account-sdk';
import { describe, expect, it } from 'vitest';
import { type SecondFactorRequest, secondFactorPlugin, subjectInfo } from '../src';
import { OrganisationErrorCode } from '../src/protocol';

const required = {
  message: 'error',
  data: { error_code: 1621, description: 'Set up a second factor', enrol: ['passkey', 'totp'] },
};
const subject = { message: 'success', data: { sec_subject_uid: 's1', subject_name: 'Example' } };

/** A passport that answers 1621 until the account has a factor, and counts what it was asked. */
function passport() {
  const state = { hasFactor: false, calls: 0 };
  const client = createAccountClient({
    aid: 1128,
    baseUrl: 'https://passport.example.com',
    language: 'en',
    document: { cookie: '' },
    fingerprint: () => 'verify_x',
    fetch: async () => {
      state.calls++;
      const answer = state.hasFactor ? subject : required;
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, state };
}

describe('secondFactorPlugin', () => {
  it('opens one enrolment for calls refused together, then sends each again once', async () => {
    const { client, state } = passport();
    const opened: SecondFactorRequest[] = [];
    let finish: (enrolled: boolean) => void = () => {};
    client.use(
      secondFactorPlugin({
        dialog: {
          enrol: (request) => {
            opened.push(request);
            return new Promise((resolve) => {
              finish = resolve;
            });
          },
        },
      }),
    );
    const first = subjectInfo(client, { sec_subject_uid: 's1' });
    await expect.poll(() => opened.length).toBe(1);
    expect(opened[0]).toEqual({ enrol: ['passkey', 'totp'], language: 'en' });
    state.hasFactor = true;
    finish(true);
    expect(await first).toMatchObject({ subject_name: 'Example' });
    expect(state.calls).toBe(2);
  });

  it('rejects the call with the 1621 failure when the person closes the dialog', async () => {
    const { client, state } = passport();
    client.use(secondFactorPlugin({ dialog: { enrol: async () => false } }));
    const failed = await subjectInfo(client, { sec_subject_uid: 's1' }).catch((error: unknown) => error);
    expect(isAccountError(failed, 'response')).toBe(true);
    expect((failed as { error_code: number }).error_code).toBe(OrganisationErrorCode.secondFactorRequired);
    expect(state.calls).toBe(1);
  });

  it('does not loop when the resent call is refused again', async () => {
    const { client, state } = passport();
    let opened = 0;
    client.use(
      secondFactorPlugin({
        dialog: {
          enrol: async () => {
            opened++;
            return true;
          },
        },
      }),
    );
    const failed = await subjectInfo(client, { sec_subject_uid: 's1' }).catch((error: unknown) => error);
    expect((failed as { error_code: number }).error_code).toBe(1621);
    expect([opened, state.calls]).toEqual([1, 2]);
  });

  it('asks for a dialog', () => {
    expect(() => secondFactorPlugin({} as never)).toThrow(/options.dialog/);
  });
});
