import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PassportError } from '../src/errors';
import { closed } from '../src/http/response-check';
import { webResponses } from '../src/schemas/common';
import { startServer, type TestServer } from './support/server';

/**
 * The suite's response check (src/http/response-check.ts, on in test/support/server.ts): a body that
 * does not match its route's declared schema answers 500 and names the route and the mismatch.
 */

const Data = Type.Object({
  name: Type.String(),
  count: Type.Integer(),
  note: Type.Optional(Type.String()),
  extra: Type.Object({}, { additionalProperties: true }),
});
let answer: unknown;

let server: TestServer;
let stderr: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  server = await startServer(
    {},
    {
      plugins: [
        async (app: FastifyInstance) => {
          app.get('/test/shape', { schema: { response: webResponses(Data) } }, async () => answer);
          app.get('/test/shape/fails', { schema: { response: webResponses(Data) } }, async () => {
            throw new PassportError('notLoggedIn');
          });
        },
      ],
    },
  );
  stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterAll(async () => {
  stderr.mockRestore();
  await server?.close();
});

const get = (url = '/test/shape') => server.app.inject({ method: 'GET', url });

describe('the response check', () => {
  it('lets a body that matches through, undefined optional fields and open objects included', async () => {
    answer = { message: 'success', data: { name: 'a', count: 1, note: undefined, extra: { any: [1] } } };
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'success',
      data: { name: 'a', count: 1, extra: { any: [1] } },
    });
  });

  it('lets a failure envelope through', async () => {
    const response = await get('/test/shape/fails');
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('error');
  });

  it.each([
    ['a mistyped field', { name: 'a', count: '1', extra: {} }, '/data/count'],
    ['a missing field', { count: 1, extra: {} }, '/data'],
    ['an undeclared field', { name: 'a', count: 1, extra: {}, secret: 'x' }, '/data'],
    ['a field the wire drops', { name: 'a', count: undefined, extra: {} }, '/data'],
  ])('answers 500 for %s and names the route and where', async (_, data, where) => {
    stderr.mockClear();
    answer = { message: 'success', data };
    const response = await get();
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    const line = String(stderr.mock.calls.at(-1)?.[0]);
    expect(line).toContain('GET /test/shape (200)');
    expect(line).toContain(where);
  });

  it('closes objects but keeps an intersection’s parts open', () => {
    const both = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]);
    expect(closed(both)).toMatchObject({
      unevaluatedProperties: false,
      allOf: [{ properties: { a: {} } }, { properties: { b: {} } }],
    });
    expect((closed(both) as { allOf: object[] }).allOf[0]).not.toHaveProperty('additionalProperties');
    const check = Compile(closed(both) as TSchema);
    expect(check.Check({ a: 'x', b: 'y' })).toBe(true);
    expect(check.Check({ a: 'x', b: 'y', c: 'z' })).toBe(false);
    expect(closed(Type.Object({ a: Type.Object({ b: Type.String() }) }))).toMatchObject({
      additionalProperties: false,
      properties: { a: { additionalProperties: false } },
    });
  });
});
