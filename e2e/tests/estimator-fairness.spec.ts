import { request as playwrightRequest } from '@playwright/test';
import { PASSWORD, registerByMobile } from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';

// The password strength estimator is one worker thread: its queue is fair per client network (an IPv4
// address, an IPv6 /48) and per account (apps/passport-server/src/domain/passwords/fair-queue.ts), so
// strangers who hammer it slow only themselves. A person registers with a password in Chromium while
// 200 password resets from other addresses (each naming its own in x-forwarded-for, as a proxy
// would) keep the estimator busy.

test('a person sets a password while 200 requests from other addresses hammer the estimator', async ({
  page,
  server,
  outbox,
}) => {
  const api = await playwrightRequest.newContext({ baseURL: server.origin });
  try {
    await api.get('/passport/web/account/info/');
    const csrf =
      (await api.storageState()).cookies.find((c) => c.name === 'passport_csrf_token')?.value ?? '';
    expect(csrf).not.toBe('');
    let answered = 0;
    const statuses: number[] = [];
    // 100 from /64s of one IPv6 /48, 100 from IPv4 addresses of their own; 80 in flight at a time (more than one shared queue of 64 would hold), so
    // the hammer lasts through the sign-up (200 at once only measured the machine's connection backlog).
    const addressOf = (i: number) => (i < 100 ? `2001:db8:4d:${i.toString(16)}::1` : `198.18.${i}.7`);
    const hammer = Array.from({ length: 80 }, async (_, lane) => {
      for (let i = lane; i < 200; i += 80) {
        const answer = await api.post('/passport/web/password/reset/', {
          headers: {
            'x-tt-passport-csrf-token': csrf,
            origin: server.origin,
            'x-forwarded-for': addressOf(i),
          },
          form: { mobile: uniqueMobile(), code: '123456', password: 'a@'.repeat(16) },
        });
        statuses.push(answer.status());
        answered += 1;
      }
    });
    // Sign up by mobile with a password while the hammer is in flight.
    await registerByMobile(page, server, outbox, { mobile: uniqueMobile(), password: PASSWORD });
    await Promise.all(hammer);
    expect(answered).toBe(200);
    // Every hammer request was answered as a refusal of its own (a weak password, a wrong code or
    // RATE_LIMITED), never with a 5xx.
    expect(statuses.every((status) => status < 500)).toBe(true);
  } finally {
    await api.dispose();
  }
});
