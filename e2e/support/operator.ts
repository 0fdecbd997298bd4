import type { APIRequestContext } from '@playwright/test';
import { request as playwrightRequest } from '@playwright/test';
import { letResendCooldownPass } from './person';
import { type RunningServer, startServer } from './server';
import { expect, Outbox, uniqueMobile } from './test';

// An operator for the specs of the operator's screens (admin console, monitoring, waitlist): an
// account made on a first server, then named in OPERATOR_USER_IDS of a second one on the same
// DATA_DIR (an operator is named by user id, which exists only once the account does).

/** An API client signed in by SMS code on `origin` (the CSRF header copied from its cookie, as the SDK does). */
export async function signedInApi(
  origin: string,
  outbox: Outbox,
  mobile: string,
): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: origin });
  await api.get('/passport/web/account/info/');
  const post = async (path: string, form: Record<string, string>) => {
    const { cookies } = await api.storageState();
    const token = cookies.find((c) => c.name === 'passport_csrf_token')?.value ?? '';
    const response = await api.post(path, { form, headers: { 'x-tt-passport-csrf-token': token } });
    return (await response.json()) as { message: string };
  };
  const sentAt = Date.now() - 1000;
  expect((await post('/passport/web/send_code/', { mobile, type: '24' })).message).toBe('success');
  const code = await outbox.code(mobile, sentAt);
  const login = await post('/passport/web/sms_login/', { mobile, code });
  expect(login.message, JSON.stringify(login)).toBe('success');
  return api;
}

/**
 * A server on `dataDir` started with `env` whose OPERATOR_USER_IDS names a new account, and that
 * account's API client, signed in there just now (the console's step-up is fresh for ten minutes).
 */
export async function serverWithOperator(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; operator: APIRequestContext }> {
  const first = await startServer({ env: { DATA_DIR: dataDir } });
  const operatorMobile = uniqueMobile();
  let operatorId: string;
  try {
    const api = await signedInApi(first.origin, new Outbox(first.origin), operatorMobile);
    operatorId = (await (await api.get('/passport/web/account/info/')).json()).data.user_id as string;
    await api.dispose();
  } finally {
    await first.stop();
  }
  const server = await startServer({ env: { ...env, DATA_DIR: dataDir, OPERATOR_USER_IDS: operatorId } });
  // The operator signs in there again (the store is the same file: the send cooldown is let pass).
  letResendCooldownPass({ ...server, dataDir }, operatorMobile);
  try {
    const operator = await signedInApi(server.origin, new Outbox(server.origin), operatorMobile);
    return { server, operator };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
