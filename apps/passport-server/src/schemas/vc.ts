import { Type } from 'typebox';
import { CHALLENGE_ID_PATTERN } from '../domain/challenge/challenges';
import { POW_PAYLOAD_MAX } from '../domain/challenge/pow';
import { PROVIDER_TOKEN_MAX } from '../domain/challenge/providers';
import { TRACE_MAX_POINTS } from '../domain/challenge/trace';
import { CommonQuery, FORM, webResponses } from './common';

const ChallengeId = Type.String({
  pattern: CHALLENGE_ID_PATTERN,
  description: 'the decision’s challenge_id',
});
const Fingerprint = Type.String({
  maxLength: 128,
  description: 'the device fingerprint (verifyFp) the pass is bound to',
});

export const settingSchema = {
  summary: 'Where the challenge script lives (the captcha loader reads it)',
  tags: ['challenge'],
  querystring: CommonQuery,
  response: webResponses(
    Type.Object({
      sdk_url: Type.String({ description: 'the primary script address' }),
      backup_urls: Type.Array(Type.String(), { description: 'tried in order after the primary' }),
      version: Type.String(),
    }),
  ),
};

export const ChallengeBody = Type.Object(
  {
    challenge_id: ChallengeId,
    fp: Type.Optional(Fingerprint),
    language: Type.Optional(Type.String({ maxLength: 16 })),
    mode: Type.Optional(
      Type.Union([Type.Literal('puzzle'), Type.Literal('accessible')], {
        description:
          'accessible: no picture; the same proof of work and a cooldown pass it (for people who cannot see the puzzle)',
      }),
    ),
    without_provider: Type.Optional(
      Type.Literal('1', {
        description:
          'a provider behind the picture whose widget could not run: the picture alone, at the same proof of work',
      }),
    ),
  },
  { additionalProperties: true },
);

/**
 * ALTCHA v2's challenge (PBKDF2/SHA-256): derive PBKDF2(nonce ‖ counter as 4 bytes big-endian, salt,
 * cost, keyLength) for counters 0, 1, 2, … until the key starts with `keyPrefix`; `limit` bounds the
 * counter (the work's price in attempts).
 */
export const PowChallengeSchema = Type.Object({
  parameters: Type.Object(
    {
      algorithm: Type.Literal('PBKDF2/SHA-256'),
      nonce: Type.String(),
      salt: Type.String(),
      cost: Type.Integer(),
      keyLength: Type.Integer(),
      keyPrefix: Type.String(),
      keySignature: Type.Optional(Type.String()),
      data: Type.Optional(
        Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
      ),
    },
    { additionalProperties: true },
  ),
  signature: Type.String(),
  limit: Type.Integer({ description: 'the counter is below this: the most attempts the work needs' }),
});

export const challengeSchema = {
  summary: 'Draws a fresh puzzle for a challenge id (images as data URLs; never the answer)',
  tags: ['challenge'],
  consumes: FORM,
  querystring: CommonQuery,
  body: ChallengeBody,
  response: webResponses(
    Type.Object({
      challenge_id: Type.String(),
      subtype: Type.Union([
        Type.Literal('slide'),
        Type.Literal('text'),
        Type.Literal('3d'),
        Type.Literal('whirl'),
      ]),
      expires_in: Type.Integer({ description: 'seconds the puzzle stays answerable' }),
      tries_left: Type.Integer(),
      mode: Type.Union([Type.Literal('puzzle'), Type.Literal('accessible')]),
      wait: Type.Optional(Type.Integer({ description: 'accessible: seconds before it may pass' })),
      pow: PowChallengeSchema,
      provider: Type.Optional(
        Type.Object({
          name: Type.String({ description: 'turnstile, hcaptcha or geetest' }),
          site_key: Type.String({ description: 'the widget’s public key (GeeTest: captcha id)' }),
          mode: Type.Union([Type.Literal('behind'), Type.Literal('instead')]),
          script_url: Type.String({ description: 'the widget’s script (its documented address unless set)' }),
        }),
      ),
      image: Type.String({ description: 'PNG data URL (empty for the accessible route)' }),
      width: Type.Integer(),
      height: Type.Integer(),
      piece: Type.Optional(Type.String({ description: 'slide: the piece, PNG data URL' })),
      piece_width: Type.Optional(Type.Integer()),
      piece_height: Type.Optional(Type.Integer()),
      piece_y: Type.Optional(Type.Integer({ description: 'slide: the piece’s fixed top' })),
      prompt: Type.Optional(Type.String({ description: '3d: what to click' })),
      length: Type.Optional(Type.Integer({ description: 'text: how many characters' })),
    }),
  ),
};

const Coordinate = Type.Number({ minimum: -10_000, maximum: 10_000 });

export const VerifyBody = Type.Object(
  {
    challenge_id: ChallengeId,
    fp: Type.Optional(Fingerprint),
    x: Type.Optional(Coordinate),
    y: Type.Optional(Coordinate),
    trace: Type.Optional(
      Type.String({
        maxLength: TRACE_MAX_POINTS * 40,
        description: 'slide: JSON [[x, y, t], …], t in ms since the drag began',
      }),
    ),
    text: Type.Optional(Type.String({ maxLength: 32 })),
    pow: Type.Optional(
      Type.String({
        maxLength: POW_PAYLOAD_MAX,
        description:
          'the proof of work: base64 JSON {challenge: {parameters, signature}, solution: {counter, derivedKey}}',
      }),
    ),
    provider_token: Type.Optional(
      Type.String({
        maxLength: PROVIDER_TOKEN_MAX,
        description: 'the provider widget’s response (GeeTest: the JSON of its four validate fields)',
      }),
    ),
    angle: Type.Optional(
      Type.Number({ minimum: -3600, maximum: 3600, description: 'whirl: degrees turned clockwise' }),
    ),
  },
  { additionalProperties: true },
);

export const verifySchema = {
  summary: 'Checks an answer; right: a one-time pass bound to fp and the guarded action',
  tags: ['challenge'],
  consumes: FORM,
  querystring: CommonQuery,
  body: VerifyBody,
  response: webResponses(
    Type.Object({
      challenge_id: Type.String(),
      pass: Type.String({
        description: 'send it back as challenge_pass (with the same fp) on the resent request',
      }),
      expires_in: Type.Integer(),
      action: Type.String(),
    }),
  ),
};

export const scriptSchema = {
  summary: 'The challenge script (window.PorticoChallenge)',
  tags: ['challenge'],
  querystring: Type.Object(
    { v: Type.Optional(Type.String({ maxLength: 64 })) },
    { additionalProperties: true },
  ),
};

export const devAnswerSchema = {
  summary: 'The expected answer of a challenge’s current puzzle (development only)',
  tags: ['dev'],
  querystring: Type.Object({ challenge_id: Type.String({ maxLength: 64 }) }),
  response: webResponses(Type.Object({ answer: Type.Any() })),
};
