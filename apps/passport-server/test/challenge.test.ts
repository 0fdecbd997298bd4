import { runInNewContext } from 'node:vm';
import { fetchChallengeSettings } from '@portico/captcha-loader';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PuzzleAnswer } from '../src/domain/challenge/puzzle';
import { gapPositions, SLIDE_ROW } from '../src/domain/challenge/puzzles/slide';
import { CaptchaDecisionCode, type CaptchaSubtype, ErrorCode, paths } from '../src/protocol';
import {
  answerFields,
  decisionOf,
  dragTrace,
  draw,
  evenTrace,
  expectedAnswer,
  GUARDED,
  guardedRoutes,
  OTHER_GUARDED,
  solve,
  verify,
} from './support/challenge';
import { type Browser, startServer, type TestServer } from './support/server';

/** Issue 4, item 2: the challenge service, its puzzles and its one-time passes. */

let server: TestServer;
let clock = Date.now();
const FP = 'verify_lx1portico_test_fingerprint';

beforeAll(async () => {
  server = await startServer(
    {},
    { now: () => clock, plugins: [guardedRoutes], limits: { challengeAfterTargetFailures: 2 } },
  );
});
afterAll(async () => server?.close());
beforeEach(() => {
  clock = Date.now();
});

let targets = 0;
const freshTarget = () => `account-${process.pid}-${++targets}`;

/** Fails a guarded sign-in until it demands a challenge; returns the demand's answer. */
async function demandChallenge(browser: Browser, target: string, url = GUARDED) {
  await browser.post(url, { target, password: 'wrong' });
  await browser.post(url, { target, password: 'wrong' });
  const demanded = await browser.post(url, { target, password: 'right' });
  expect(demanded.body.data.error_code).toBe(ErrorCode.challengeRequired);
  return demanded;
}

/** A challenge of a given kind, demanded directly from the service for the guarded action. */
async function challengeOf(subtype: CaptchaSubtype, action = '/test/guarded'): Promise<string> {
  const data = await server.app.challenge.demand(action, subtype);
  const conf = JSON.parse(Object.values(data)[0] as string) as { challenge_id: string };
  return conf.challenge_id;
}

describe('GET /vc/setting', () => {
  it('answers the captcha loader’s contract, read by the loader’s own settings parser', async () => {
    const settings = await fetchChallengeSettings({
      baseUrl: '',
      aid: '1128',
      language: 'en',
      clock: { now: Date.now, setTimeout, clearTimeout },
      fetch: async (url) => {
        const response = await server.app.inject({ method: 'GET', url: String(url) });
        return new Response(response.body, {
          status: response.statusCode,
          headers: { 'content-type': String(response.headers['content-type']) },
        });
      },
    });
    expect(settings.sdk_url).toBe(paths.vc.sdkPrimary);
    expect(settings.backup_urls).toEqual([paths.vc.sdkBackup]);
    expect(settings.version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
  });
});

describe('the challenge script', () => {
  it('is served from the primary and the backup path as cacheable JavaScript', async () => {
    const browser = server.browser();
    const bodies: string[] = [];
    for (const url of [paths.vc.sdkPrimary, paths.vc.sdkBackup]) {
      const response = await browser.get(url);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
      expect(response.headers.etag).toBeTruthy();
      bodies.push(String(response.body));
    }
    expect(bodies[0]).toBe(bodies[1]);
  });

  it('registers window.PorticoChallenge with show() while it runs, touching nothing else', async () => {
    const text = String((await server.browser().get(paths.vc.sdkPrimary)).body);
    const window: Record<string, { show?: unknown; version?: unknown }> = {};
    runInNewContext(text, { window });
    expect(typeof window.PorticoChallenge?.show).toBe('function');
    expect(window.PorticoChallenge?.version).toMatch(/^\d+\.\d+\.\d+\+/);
    expect(text).not.toContain('__PORTICO_CHALLENGE_CONFIG__');
  });
});

describe('a demanded challenge', () => {
  it('comes after repeated failures, with a decision conf the protocol parses, bound to the route', async () => {
    const demanded = await demandChallenge(server.browser(), freshTarget());
    const conf = decisionOf(demanded);
    expect(Object.values(CaptchaDecisionCode)).toContain(conf.code);
    expect(conf.challenge_id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(conf.action).toBe('/test/guarded');
  });

  it('once solved, lets the original request resent with fp and the pass through exactly once', async () => {
    const browser = server.browser();
    const target = freshTarget();
    const conf = decisionOf(await demandChallenge(browser, target));
    const pass = await solve(browser, conf.challenge_id, FP);
    const resent = await browser.post(`${GUARDED}?fp=${FP}`, {
      target,
      password: 'wrong',
      isResend: 1,
      challenge_pass: pass,
    });
    expect(resent.body.data.error_code, 'the resend reached the password check').toBe(
      ErrorCode.wrongCredentials,
    );
    const replayed = await browser.post(GUARDED, { target, password: 'right', fp: FP, challenge_pass: pass });
    expect(replayed.body.data.error_code, 'a replayed pass').toBe(ErrorCode.challengeRequired);
  });

  it('yields a pass that another action, another fingerprint or another browser cannot use', async () => {
    const browser = server.browser();
    const target = freshTarget();
    const conf = decisionOf(await demandChallenge(browser, target));
    const pass = await solve(browser, conf.challenge_id, FP);

    // The other route demands a challenge of its own for the same target.
    await browser.post(OTHER_GUARDED, { target, password: 'wrong' });
    await browser.post(OTHER_GUARDED, { target, password: 'wrong' });
    const otherAction = await browser.post(OTHER_GUARDED, {
      target,
      password: 'right',
      fp: FP,
      challenge_pass: pass,
    });
    expect(otherAction.body.data.error_code, 'another action').toBe(ErrorCode.challengeRequired);

    const otherFp = await browser.post(GUARDED, {
      target,
      password: 'right',
      fp: `${FP}x`,
      challenge_pass: pass,
    });
    expect(otherFp.body.data.error_code, 'another fingerprint').toBe(ErrorCode.challengeRequired);
    const noFp = await browser.post(GUARDED, { target, password: 'right', challenge_pass: pass });
    expect(noFp.body.data.error_code, 'no fingerprint').toBe(ErrorCode.challengeRequired);

    const thief = server.browser();
    thief.remoteAddress = browser.remoteAddress;
    const stolen = await thief.post(GUARDED, { target, password: 'right', fp: FP, challenge_pass: pass });
    expect(stolen.body.data.error_code, 'another browser').toBe(ErrorCode.challengeRequired);

    // None of those spent it: the rightful resend still goes through.
    const rightful = await browser.post(GUARDED, { target, password: 'right', fp: FP, challenge_pass: pass });
    expect(rightful.body.message, JSON.stringify(rightful.body)).toBe('success');
  });

  it('yields a pass that expires after 2 minutes', async () => {
    const browser = server.browser();
    const target = freshTarget();
    const conf = decisionOf(await demandChallenge(browser, target));
    const pass = await solve(browser, conf.challenge_id, FP);
    clock += 2 * 60_000 + 1;
    const late = await browser.post(GUARDED, { target, password: 'right', fp: FP, challenge_pass: pass });
    expect(late.body.data.error_code).toBe(ErrorCode.challengeRequired);
  });

  it('is single use: a solved challenge cannot be solved again for a second pass', async () => {
    const browser = server.browser();
    const id = await challengeOf('text');
    await solve(browser, id, FP);
    const again = await draw(browser, { challenge_id: id, fp: FP });
    expect(again.body.data.error_code).toBe(ErrorCode.challengeExpired);
  });

  it('dies when its time is up, puzzle and all', async () => {
    const browser = server.browser();
    const id = await challengeOf('whirl');
    await draw(browser, { challenge_id: id, fp: FP });
    const answer = await expectedAnswer(browser, id);
    clock += 2 * 60_000 + 1;
    const late = await verify(browser, { challenge_id: id, fp: FP, ...answerFields(answer) });
    expect(late.body.data.error_code).toBe(ErrorCode.challengeExpired);
  });
});

describe('a puzzle', () => {
  it('allows 3 tries, then dies even for the right answer', async () => {
    const browser = server.browser();
    const id = await challengeOf('text');
    await draw(browser, { challenge_id: id, fp: FP });
    const answer = await expectedAnswer(browser, id);
    const left: number[] = [];
    for (let i = 0; i < 3; i++) {
      const wrong = await verify(browser, {
        challenge_id: id,
        fp: FP,
        ...answerFields(answer, true),
      });
      expect(wrong.body.data.error_code).toBe(ErrorCode.challengeFailed);
      left.push(wrong.body.data.tries_left);
    }
    expect(left).toEqual([2, 1, 0]);
    const right = await verify(browser, { challenge_id: id, fp: FP, ...answerFields(answer) });
    expect(right.body.data.error_code).toBe(ErrorCode.challengeExpired);
    // A fresh puzzle for the same challenge can still be solved.
    expect(await solve(browser, id, FP)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('cannot be redrawn without end: a challenge gives at most 5 puzzles', async () => {
    const browser = server.browser();
    const id = await challengeOf('text');
    for (let i = 0; i < 5; i++) {
      expect((await draw(browser, { challenge_id: id, fp: FP })).body.message).toBe('success');
    }
    const sixth = await draw(browser, { challenge_id: id, fp: FP });
    expect(sixth.body.data.error_code).toBe(ErrorCode.challengeExpired);
  });

  it('picks text and 3d by default, never slide or whirl (scripts pass a third and a half of those)', async () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const data = await server.app.challenge.demand('/test/guarded');
      kinds.add((JSON.parse(Object.values(data)[0] as string) as { subtype: string }).subtype);
    }
    expect([...kinds].sort()).toEqual(['3d', 'text']);
  });

  it('refuses unknown challenge ids and malformed answers without a 5xx', async () => {
    const browser = server.browser();
    const unknown = await draw(browser, { challenge_id: 'A'.repeat(24), fp: FP });
    expect(unknown.body.data.error_code).toBe(ErrorCode.challengeExpired);
    const id = await challengeOf('slide');
    await draw(browser, { challenge_id: id, fp: FP });
    for (const trace of ['not json', '[[1,2]]', JSON.stringify([[0, 0, 'x']]), '{}']) {
      const response = await verify(browser, { challenge_id: id, x: 100, trace });
      expect(response.status).toBeLessThan(500);
    }
  });
});

describe.each(['slide', 'text', 'whirl', '3d'] as const)('the %s puzzle', (subtype) => {
  it('verifies a right answer and refuses a wrong one', async () => {
    const browser = server.browser();
    const id = await challengeOf(subtype);
    const drawn = await draw(browser, { challenge_id: id, fp: FP, language: 'en' });
    expect(drawn.body.data.subtype).toBe(subtype);
    expect(drawn.body.data.image).toMatch(/^data:image\/png;base64,/);
    const answer = await expectedAnswer(browser, id);
    // The answer never travels to the client with the puzzle.
    expect(JSON.stringify(drawn.body)).not.toContain('answer');
    if (answer.kind === 'text') expect(JSON.stringify(drawn.body)).not.toContain(answer.text);

    const wrong = await verify(browser, {
      challenge_id: id,
      fp: FP,
      ...answerFields(answer, true),
    });
    expect(wrong.body.data.error_code).toBe(ErrorCode.challengeFailed);
    // Whirl and 3d give one try per picture (a blind turn, or a pick among the solids of the named
    // colour, is a fair guess): the right answer needs a new one.
    let current = answer;
    if (wrong.body.data.tries_left === 0) {
      expect(['whirl', '3d']).toContain(subtype);
      await draw(browser, { challenge_id: id, fp: FP });
      current = await expectedAnswer(browser, id);
    }
    const right = await verify(browser, { challenge_id: id, fp: FP, ...answerFields(current) });
    expect(right.body.message, JSON.stringify(right.body)).toBe('success');
    expect(right.body.data.action).toBe('/test/guarded');
  });

  it('is never the same image twice', async () => {
    const browser = server.browser();
    const images = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const id = await challengeOf(subtype);
      const drawn = await draw(browser, { challenge_id: id, fp: FP });
      images.add(drawn.body.data.image);
      if (drawn.body.data.piece) images.add(drawn.body.data.piece);
    }
    expect(images.size).toBe(subtype === 'slide' ? 6 : 3);
  });
});

describe('the slide puzzle', () => {
  it('puts its gaps on the row without overlap, in every order and across the row', () => {
    for (const count of [3, 4]) {
      const lefts = new Set<number>();
      const firsts = new Set<number>();
      for (let i = 0; i < 2000; i++) {
        const xs = gapPositions(count);
        expect(xs).toHaveLength(count);
        const sorted = [...xs].sort((a, b) => a - b);
        expect(sorted[0]).toBeGreaterThanOrEqual(SLIDE_ROW.minX);
        expect(sorted.at(-1)).toBeLessThanOrEqual(SLIDE_ROW.maxX);
        for (let j = 1; j < count; j++)
          expect((sorted[j] as number) - (sorted[j - 1] as number)).toBeGreaterThanOrEqual(SLIDE_ROW.step);
        lefts.add(sorted[0] as number);
        firsts.add(xs.indexOf(sorted[0] as number));
      }
      // The answer's gap is not always the leftmost, and the row's slack is used.
      expect(firsts.size).toBe(count);
      expect(lefts.size).toBeGreaterThan(3);
    }
    expect(() => gapPositions(5)).toThrow(/no room/);
  });

  async function slideAnswer(browser: Browser) {
    const id = await challengeOf('slide');
    await draw(browser, { challenge_id: id, fp: FP });
    const answer = (await expectedAnswer(browser, id)) as Extract<PuzzleAnswer, { kind: 'slide' }>;
    return { id, x: answer.x };
  }

  it('refuses the right offset reached by a teleport, a trace without time or no trace', async () => {
    const browser = server.browser();
    const { id, x } = await slideAnswer(browser);
    const cases = {
      teleport: JSON.stringify([
        [0, 0, 0],
        [1, 0, 40],
        [2, 0, 80],
        [3, 0, 120],
        [x, 0, 160],
      ]),
      'two points': JSON.stringify([
        [0, 0, 0],
        [x, 0, 500],
      ]),
      'time standing still': JSON.stringify(Array.from({ length: 12 }, (_, i) => [(x * i) / 11, 0, 0])),
      'too fast': JSON.stringify(Array.from({ length: 12 }, (_, i) => [(x * i) / 11, 0, i])),
    };
    const answers: Record<string, number> = {};
    for (const [name, trace] of Object.entries(cases).slice(0, 3)) {
      // Two tries per slide puzzle: each forged trace gets a fresh one, ending on its gap.
      const fresh = name === 'teleport' ? { id, x } : await slideAnswer(browser);
      const response = await verify(browser, {
        challenge_id: fresh.id,
        fp: FP,
        x: fresh.x,
        trace: trace.replaceAll(String(x), String(fresh.x)),
      });
      answers[name] = response.body.data.error_code;
    }
    expect(answers).toEqual({
      teleport: ErrorCode.challengeFailed,
      'two points': ErrorCode.challengeFailed,
      'time standing still': ErrorCode.challengeFailed,
    });
    for (const forged of ['too fast', 'none', 'evenly spaced'] as const) {
      const fresh = await slideAnswer(browser);
      const trace =
        forged === 'too fast'
          ? JSON.stringify(Array.from({ length: 12 }, (_, i) => [(fresh.x * i) / 11, 0, i]))
          : forged === 'evenly spaced'
            ? evenTrace(fresh.x)
            : undefined;
      const response = await verify(browser, {
        challenge_id: fresh.id,
        fp: FP,
        x: fresh.x,
        ...(trace ? { trace } : {}),
      });
      expect(response.body.data.error_code, forged).toBe(ErrorCode.challengeFailed);
    }
    const second = await slideAnswer(browser);
    // A keyboard's steps are a plausible trace too.
    const right = await verify(browser, {
      challenge_id: second.id,
      fp: FP,
      x: second.x,
      trace: dragTrace(second.x, 30),
    });
    expect(right.body.message).toBe('success');
  });
});

describe('the dev answer endpoint', () => {
  it('exists only when the dev outbox is the delivery provider', async () => {
    const recorder = { name: 'recorder', send: async () => {} };
    const production = await startServer({ devOutbox: 'off' }, { sms: recorder, mail: recorder });
    try {
      const response = await production.browser().get(`/dev/challenge/answer?challenge_id=${'A'.repeat(24)}`);
      expect(response.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
