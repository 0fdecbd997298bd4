import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { expect } from 'vitest';
import type { PuzzleAnswer } from '../../src/domain/challenge/puzzle';
import { PassportError } from '../../src/errors';
import {
  DECISION_CONF_FIELD,
  type DecisionConf,
  parseDecisionConf,
  paths,
  webSuccess,
} from '../../src/protocol';
import type { Answer, Browser } from './server';

/**
 * A drag from the left edge to x as a hand makes it: fast then slowing down (ease-out), 35-60 ms
 * between moves, a little vertical wobble. Deterministic, so a failure replays.
 */
export function dragTrace(x: number, steps = 12): string {
  const points: [number, number, number][] = [[0, 0, 0]];
  let t = 0;
  for (let i = 1; i <= steps; i++) {
    t += 35 + ((i * 17) % 26);
    const eased = 1 - (1 - i / steps) ** 2;
    points.push([Math.round(x * eased * 10) / 10, i % 3, t]);
  }
  return JSON.stringify(points);
}

/** The forged trace of issue 10: evenly spaced in distance and time, as a script interpolates it. */
export function evenTrace(x: number, steps = 12): string {
  return JSON.stringify(
    Array.from({ length: steps + 1 }, (_, i) => [Math.round(((x * i) / steps) * 10) / 10, 0, i * 40]),
  );
}

/** The form fields a person would submit for the expected answer (or a wrong one). */
export function answerFields(answer: PuzzleAnswer, wrong = false): Record<string, string | number> {
  switch (answer.kind) {
    case 'slide': {
      const x = wrong ? (answer.x > 150 ? answer.x - 40 : answer.x + 40) : answer.x;
      return { x, trace: dragTrace(x) };
    }
    case 'text':
      return { text: wrong ? `${answer.text.slice(1)}Q` : answer.text.toLowerCase() };
    case 'whirl':
      return { angle: wrong ? 360 - answer.angle + 90 : 360 - answer.angle };
    case '3d':
      return wrong ? { x: answer.x + answer.r * 3, y: answer.y } : { x: answer.x + 3, y: answer.y - 2 };
    case 'accessible':
    case 'provider':
      return {};
  }
}

/** ALTCHA v2's challenge as /vc/challenge hands it out, with its price (`limit`). */
export interface PowChallenge {
  parameters: Challenge['parameters'];
  signature: string;
  limit: number;
}

/** The attempts (key derivations) the last `solvePow` made: the work's cost, counted, never timed. */
export const powWork = { attempts: 0, total: 0 };

/**
 * Solves the proof of work the way the browser's workers do (altcha-lib's own solver, counters from 0)
 * → the payload; counts every derivation it makes in `powWork`.
 */
export async function solvePow(pow: PowChallenge): Promise<string> {
  let attempts = 0;
  const solution = await solveChallenge({
    challenge: { parameters: pow.parameters, signature: pow.signature },
    deriveKey: (parameters, salt, password) => {
      attempts++;
      return deriveKey(parameters, salt, password);
    },
    timeout: 0,
  });
  powWork.attempts = attempts;
  powWork.total += attempts;
  if (!solution) throw new Error('the proof of work has no solution');
  const payload = {
    challenge: { parameters: pow.parameters, signature: pow.signature },
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The decision conf a CHALLENGE_REQUIRED failure carries, parsed the way the SDK parses it. */
export function decisionOf(response: Answer): DecisionConf {
  expect(response.body.message, JSON.stringify(response.body)).toBe('error');
  const conf = parseDecisionConf(response.body.data[DECISION_CONF_FIELD]);
  expect(conf, 'the failure carries a decision conf').toBeDefined();
  return conf as DecisionConf;
}

/** The expected answer from the dev-only endpoint, as a browser test would read it. */
export async function expectedAnswer(browser: Browser, challengeId: string): Promise<PuzzleAnswer> {
  const response = await browser.get(`/dev/challenge/answer?challenge_id=${challengeId}`);
  expect(response.body.message, JSON.stringify(response.body)).toBe('success');
  return response.body.data.answer as PuzzleAnswer;
}

/** The proof of work each challenge id's next answer must carry, as the script keeps it. */
const currentPow = new Map<string, PowChallenge>();

/** POST /vc/challenge, remembering the proof of work it hands out (as the script does). */
export async function draw(browser: Browser, body: Record<string, string | number>): Promise<Answer> {
  const response = await browser.post(paths.vc.challenge, body);
  if (response.body.data?.pow) currentPow.set(String(body.challenge_id), response.body.data.pow);
  return response;
}

/**
 * POST /vc/verify with the solved proof of work of the current puzzle (as the script sends it), taking
 * the next one from a refusal. `pow: ''` (or any given value) in the body is sent as it is.
 */
export async function verify(browser: Browser, body: Record<string, string | number>): Promise<Answer> {
  const id = String(body.challenge_id);
  const pow = currentPow.get(id);
  const sent = 'pow' in body || !pow ? body : { ...body, pow: await solvePow(pow) };
  const response = await browser.post(paths.vc.verify, sent);
  if (response.body.data?.pow) currentPow.set(id, response.body.data.pow);
  return response;
}

/** Draws a puzzle and answers it right; returns the pass. */
export async function solve(browser: Browser, challengeId: string, fp: string): Promise<string> {
  const puzzle = await browser.post(paths.vc.challenge, { challenge_id: challengeId, fp });
  expect(puzzle.body.message, JSON.stringify(puzzle.body)).toBe('success');
  const answer = await expectedAnswer(browser, challengeId);
  const verified = await browser.post(paths.vc.verify, {
    challenge_id: challengeId,
    fp,
    pow: await solvePow(puzzle.body.data.pow),
    ...answerFields(answer),
  });
  expect(verified.body.message, JSON.stringify(verified.body)).toBe('success');
  return verified.body.data.pass as string;
}

export const GUARDED = '/test/guarded/';
export const OTHER_GUARDED = '/test/other/';

/**
 * Two test routes guarded by the sign-in rule: `password=right` succeeds, anything else is a recorded
 * failure against `target`. They stand for any route the risk rules guard.
 */
export const guardedRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  for (const url of [GUARDED, OTHER_GUARDED]) {
    app.post(
      url,
      {
        schema: {
          querystring: { type: 'object', additionalProperties: true },
          body: {
            type: 'object',
            properties: {
              target: { type: 'string', maxLength: 64 },
              password: { type: 'string', maxLength: 64 },
            },
            required: ['target'],
            additionalProperties: true,
          },
        },
      },
      async (request) => {
        const { target, password } = request.body as { target: string; password?: string };
        await app.risk.require(request, 'signIn', { target });
        if (password !== 'right') {
          await app.risk.recordFailure(request, { target });
          throw new PassportError('wrongCredentials');
        }
        await app.risk.recordSuccess(request, { target });
        return webSuccess({ signed_in: target });
      },
    );
  }
};
