import { sendMobileCode, smsLogin } from '@portico/account-sdk';
import { CodeType } from '../../src/protocol';
import type { SdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

interface Account {
  user_id: string;
  avatar_url: string;
  screen_name: string;
  cancel_erase_at?: number;
}

/** A person signed in by SMS code through the real SDK (a new account on first use of the number). */
export async function signedInBySms(server: SdkServer, mobile = freshMobile()) {
  const browser = server.sdkBrowser();
  const client = browser.client();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
  return { browser, client, mobile, account };
}

/** A controllable clock for buildServer's `now`. */
export function testClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export const DAY_MS = 86_400_000;
