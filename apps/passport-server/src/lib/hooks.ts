import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A Fastify hook in the callback form around work that answers synchronously, or returns a promise only
 * when it really waits. An `async` hook costs a promise and a turn of the microtask queue on every
 * request, even when it awaits nothing (docs/benchmarks.md: the session check doubled without them).
 * `run` returns a promise only when it waits; a throw or a rejection fails the request as a thrown
 * error in an async hook would.
 */
export function callbackHook(run: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    let pending: unknown;
    try {
      pending = run(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending instanceof Promise) pending.then(() => done(), done);
    else done();
  };
}
