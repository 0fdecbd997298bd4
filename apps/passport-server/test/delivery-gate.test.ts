import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownName } from '../src/delivery/templates';
import { defaultChallengeLimits } from '../src/domain/challenge/limits';
import { affiliatePaths as aff, ErrorCode } from '../src/protocol';
import { decisionOf, solve } from './support/challenge';
import { passCooldown, signInBySms } from './support/flows';
import { type Browser, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

/**
 * The outbound gate (src/delivery/gate.ts): every invitation and resend is bounded as the code route's
 * sends are (the recipient's cooldown, budgets per sender account, per recipient and per client
 * address, and the challenge when the risk rules ask), and no name that another person wrote reaches a
 * message unsanitised.
 */

/** What the dev outbox delivered to a recipient, newest first. */
async function delivered(
  server: TestServer,
  to: string,
): Promise<{ text: string; subject: string | null }[]> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return response.json().data.messages;
}

/** A fresh account on a browser of its own, managing a fresh organisation. */
async function inviter(server: TestServer, name = 'Harbour Works', deputyName = 'Boss') {
  const browser = server.browser();
  await signInBySms(server, browser);
  const created = await browser.post(aff.subjectCreateByMobile, {
    subject_name: name,
    deputy_name: deputyName,
  });
  expect(created.body.message, 'fixture: create subject').toBe('success');
  return { browser, sid: created.body.data.sec_subject_uid as string };
}

const inviteMobile = (who: { browser: Browser; sid: string }, contact: string) =>
  who.browser.post(aff.inviteByMobile, { subject_uid: who.sid, contact, deputy_name: 'Guest' });

const inviteEmail = (who: { browser: Browser; sid: string }, contact: string) =>
  who.browser.post(aff.inviteByEmail, { subject_uid: who.sid, contact, deputy_name: 'Guest' });

const resend = (who: { browser: Browser; sid: string }, issued: { body: { data: { invite_id: string } } }) =>
  who.browser.post(aff.inviteResend, { subject_uid: who.sid, invite_id: issued.body.data.invite_id });

const errorOf = (answer: { body: { data?: { error_code?: number } } }) => answer.body.data?.error_code ?? 0;

describe('the invitation flood, with the default settings', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The send rule's challenge thresholds as deployed, not the harness's quiet ones.
    const { challengeAfterSendsPerIp, challengeAfterSendsPerDevice, challengeAfterSendsPerTarget } =
      defaultChallengeLimits;
    server = await startServer(
      {},
      { limits: { challengeAfterSendsPerIp, challengeAfterSendsPerDevice, challengeAfterSendsPerTarget } },
    );
  });
  afterAll(() => server?.close());

  it('30 invitations to one number from one fresh account: one message; the rest wait for the cooldown, then the challenge', async () => {
    const boss = await inviter(server);
    const victim = freshMobile();
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push(await inviteMobile(boss, victim));
    expect(answers[0]!.body.message).toBe('success');
    const second = answers[1]!;
    expect(second.status).toBe(429);
    expect(errorOf(second)).toBe(ErrorCode.sendCooldown);
    expect(second.body.data.retry_time).toBeGreaterThan(0);
    const codes = new Set(answers.slice(1).map(errorOf));
    expect([...codes].every((c) => c === ErrorCode.sendCooldown || c === ErrorCode.challengeRequired)).toBe(
      true,
    );
    expect(errorOf(answers[29]!)).toBe(ErrorCode.challengeRequired);
    expect(answers[29]!.body.data.verify_center_decision_conf).toBeTruthy();
    expect(await delivered(server, victim)).toHaveLength(1);
  });

  it('one account inviting many numbers meets the challenge, and a pass lets one more through', async () => {
    const boss = await inviter(server);
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await inviteMobile(boss, freshMobile()));
    expect(answers[0]!.body.message).toBe('success');
    expect(errorOf(answers[9]!)).toBe(ErrorCode.challengeRequired);
    const fp = 'gate-test-device';
    const pass = await solve(boss.browser, decisionOf(answers[9]!).challenge_id, fp);
    const mobile = freshMobile();
    const passed = await boss.browser.post(aff.inviteByMobile, {
      subject_uid: boss.sid,
      contact: mobile,
      deputy_name: 'Guest',
      fp,
      challenge_pass: pass,
    });
    expect(passed.body.message, JSON.stringify(passed.body)).toBe('success');
    expect(await delivered(server, mobile)).toHaveLength(1);
  });

  it('a resend at once waits for the recipient’s cooldown, and the old link stays alive', async () => {
    const boss = await inviter(server);
    const email = freshEmail();
    const issued = await inviteEmail(boss, email);
    expect(issued.body.message).toBe('success');
    const hot = await resend(boss, issued);
    expect(hot.status).toBe(429);
    expect(errorOf(hot)).toBe(ErrorCode.sendCooldown);
    expect(hot.body.data.retry_time).toBeGreaterThan(0);
    expect(await delivered(server, email)).toHaveLength(1);
    // The refused resend rotated nothing: the link that was sent still works.
    const check = await server
      .browser()
      .post(aff.inviteCheck, { invite_ticket: issued.body.data.invite_ticket });
    expect(check.body.message).toBe('success');
  });
});

describe('the gate’s budgets', () => {
  let server: TestServer;
  const budgets = {
    sendCooldownMs: 5,
    invitationsPerSenderPerHour: 3,
    messagesPerRecipientPerHour: 2,
    invitationsPerIpPerHour: 4,
  };
  beforeAll(async () => {
    server = await startServer({}, { limits: budgets });
  });
  afterAll(() => server?.close());

  it('per sender account: past its hourly budget, SEND_LIMIT with a retry time, nothing delivered', async () => {
    const boss = await inviter(server);
    const numbers = Array.from({ length: 5 }, () => freshMobile());
    const answers = [];
    for (const n of numbers) {
      // Each from a new address: only the sender's budget is in play.
      boss.browser.remoteAddress = `10.9.${Math.floor(Math.random() * 250)}.${answers.length + 1}`;
      answers.push(await inviteMobile(boss, n));
    }
    expect(answers.slice(0, 3).map((a) => a.body.message)).toEqual(['success', 'success', 'success']);
    expect(answers[3]!.status).toBe(429);
    expect(errorOf(answers[3]!)).toBe(ErrorCode.sendLimit);
    expect(answers[3]!.body.data.retry_time).toBeGreaterThan(0);
    expect(await delivered(server, numbers[3]!)).toHaveLength(0);
  });

  it('per recipient: several senders cannot add up past the number’s budget', async () => {
    const victim = freshMobile();
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      await passCooldown();
      answers.push(await inviteMobile(await inviter(server), victim));
    }
    expect(answers.map((a) => a.body.message)).toEqual(['success', 'success', 'error']);
    expect(errorOf(answers[2]!)).toBe(ErrorCode.sendLimit);
    expect(await delivered(server, victim)).toHaveLength(2);
  });

  it('per client address: fresh accounts on one address share its budget', async () => {
    const address = '10.77.77.77';
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      const boss = await inviter(server);
      boss.browser.remoteAddress = address;
      answers.push(await inviteMobile(boss, freshMobile()));
    }
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(4);
    expect(errorOf(answers[4]!)).toBe(ErrorCode.sendLimit);
  });

  it('resends are bounded too: past the cooldown, the recipient’s budget', async () => {
    const boss = await inviter(server);
    const email = freshEmail();
    const issued = await inviteEmail(boss, email);
    expect(issued.body.message).toBe('success');
    await passCooldown();
    expect((await resend(boss, issued)).body.message).toBe('success');
    await passCooldown();
    const over = await resend(boss, issued);
    expect(over.status).toBe(429);
    expect(errorOf(over)).toBe(ErrorCode.sendLimit);
    expect(await delivered(server, email)).toHaveLength(2);
  });
});

describe('names in messages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ devOutbox: 'on' }, { limits: { sendCooldownMs: 5 } });
  });
  afterAll(() => server?.close());

  const hostile = [
    'Acme\nCall +86 138 0013 8000 now',
    'Evil\u202Eoc.elgoog',
    'Visit https://phish.example/login',
    'support.phish-example.com',
    'Ring 400-123-4567',
    'Mail help@phish.example',
  ];
  const forbidden = [/\u202E/, /https?:/i, /phish/i, /138 ?0013/, /400-?123/, /oc\.elgoog/, /@phish/];

  it('an organisation or inviter name with a newline, U+202E, a URL, a domain or a phone number never reaches the SMS or the e-mail', async () => {
    for (const name of hostile) {
      const boss = await inviter(server, name, name);
      const mobile = freshMobile();
      const email = freshEmail();
      expect((await inviteMobile(boss, mobile)).body.message).toBe('success');
      await passCooldown();
      expect((await inviteEmail(boss, email)).body.message).toBe('success');
      const [text] = await delivered(server, mobile);
      const [mail] = await delivered(server, email);
      expect(text!.text, `${JSON.stringify(name)} in the SMS`).not.toMatch(/\n/);
      for (const message of [text!.text, mail!.text, mail!.subject ?? '']) {
        const withoutLink = message.replace(/http:\/\/localhost:3000\/invite\?invite_ticket=[\w-]+/g, '');
        for (const pattern of forbidden) expect(withoutLink, JSON.stringify(name)).not.toMatch(pattern);
      }
      expect(mail!.subject ?? '', 'the subject line').not.toMatch(/[\r\n]/);
      // Each line of the e-mail is a line of the template: the name adds none.
      expect(mail!.text.split('\n')).toHaveLength(3);
      expect(text!.text).toMatch(/invite_ticket=/);
    }
  });

  it('a plain name is kept, in the fixed template', async () => {
    const boss = await inviter(server, 'Harbour Works', 'Ada Lovelace');
    const mobile = freshMobile();
    expect((await inviteMobile(boss, mobile)).body.message).toBe('success');
    const [text] = await delivered(server, mobile);
    expect(text!.text).toContain('Harbour Works');
    expect(text!.text).toContain('Ada Lovelace');
  });
});

describe('one gate', () => {
  it('no module but the gate hands a message to a provider', () => {
    const src = join(import.meta.dirname, '../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const senders = files.filter(
      (f) =>
        f !== join('delivery', 'gate.ts') &&
        /delivery\.(sms|mail|chat)\b|\b(sms|mail|chat)\.send\(/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(senders).toEqual([]);
  });

  it('shownName keeps a plain name and leaves out what could be acted on', () => {
    expect(shownName('  Harbour\tWorks  ')).toBe('Harbour Works');
    expect(shownName('海港工程有限公司')).toBe('海港工程有限公司');
    expect(shownName('Team 2024')).toBe('Team 2024');
    expect(shownName('A\u202Eb\u2066c')).toBe('Abc');
    expect(shownName('x'.repeat(100))).toHaveLength(24);
    for (const bad of [
      'ｗｗｗ．ｅｖｉｌ．ｃｏｍ',
      '１３８００１３８０００',
      '一三八零零一三八零零零',
      'evil。com',
      'a@b',
      'x://y',
      '\n\u202E',
    ])
      expect(shownName(bad), JSON.stringify(bad)).toBeNull();
  });
});
