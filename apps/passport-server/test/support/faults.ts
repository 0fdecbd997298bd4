import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CodeType } from '../../src/protocol';
import { type Answer, type Browser, codeFor, freshMobile } from './server';

/** Resolves what `work` resolves, or fails naming `what` once `ms` have passed: no test ever hangs. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Retries `attempt` until it returns true or `ms` pass; the last answer explains a failure. */
export async function eventually(ms: number, attempt: () => Promise<boolean>, pause = 100): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await attempt()) return true;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return false;
}

/** Signs a fresh mobile number in through send_code, the dev outbox and sms_login. */
export async function smsSignIn(app: FastifyInstance, browser: Browser): Promise<Answer> {
  const mobile = freshMobile();
  const sent = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
  if (sent.body?.message !== 'success') throw new Error(`send_code failed: ${JSON.stringify(sent.body)}`);
  const code = await codeFor(app, mobile);
  return browser.post('/passport/web/sms_login/', { mobile, code, type: CodeType.mobileLogin });
}

/** Inserts an account with a password straight into the database. */
export async function seedPasswordUser(app: FastifyInstance, email: string, password: string) {
  const now = Date.now();
  const id = randomUUID();
  await app.db
    .insertInto('users')
    .values({
      id,
      email,
      mobile: null,
      username: null,
      password_hash: await app.passwords.hash(password),
      screen_name: 'seeded',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
