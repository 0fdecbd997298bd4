import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { User } from '../db/schema';
import { PassportError } from '../errors';
import { languageOf } from '../lib/language';
import type { CallerSpec, Operation, RequestGate } from '../operations/define';
import { type FlowRequest, type FlowRoute, type FlowSchema, flowRoute } from '../routes/declare';
import { assertMountable, invoke, type Principal } from './invoke';
import { requestOf } from './request';

/**
 * Mounts an operation on today's path families as a flow route: the operation's input schema is the
 * route's body (POST) or query (GET), the session cookie proves the person, each row answers in its
 * family's envelope and fails in it, exactly as a flow route does.
 */

/** The person the session cookie proves (with when they last verified), or nobody. */
export const principalOf = (request: FastifyRequest): Principal =>
  request.session
    ? {
        kind: 'person',
        user: request.session.user,
        verifiedAt: request.session.verifiedAt,
        factorVerifiedAt: request.session.factorVerifiedAt,
        sessionId: request.session.id,
      }
    : { kind: 'anonymous' };

/** The outbound gate, bound to the request: its challenge pass, address and device. */
export const gateFor = (app: FastifyInstance, request: FastifyRequest): RequestGate => ({
  admitInvitation: (send) => app.gate.admitInvitation(request, send),
  language: languageOf(request),
});

export function operationRoute<
  S extends CallerSpec,
  I extends TSchema,
  O extends TSchema,
  R extends FlowSchema,
>(
  operation: Operation<S, I, O>,
  route: {
    method: FlowRoute['method'];
    /** The route's documentation (summary, tags, consumes, querystring); the input is the operation's. */
    schema: R;
    at: FlowRoute['at'];
    /** The operation's input from the request; by default the body (POST) or the query (GET). */
    input?: (request: FlowRequest<R>) => Static<I>;
    /**
     * Makes the operation's input of what was sent, outside the transaction, when that is slow (an
     * upload decoded and re-encoded): the route's `schema` then describes the wire's body or query as it
     * is. Only for a signed-in person: without a session the route answers NOT_LOGGED_IN before it.
     */
    prepare?: (request: FlowRequest<R>) => Promise<Static<I>>;
    /** The family's data from the operation's output; by default the output as it is. */
    output?: (output: Static<O>) => unknown;
    /** Bytes the body may have, when more than the server's 64 KiB (FlowRoute's `bodyLimit`). */
    bodyLimit?: number;
    /** The documented success data; by default the operation's output schema. */
    data?: TSchema;
    /**
     * What the route proves of a signed-in request before the operation runs, outside its transaction:
     * a field of the body that must name the session's own account, a password re-check (a slow hash
     * must not hold the transaction, nor SQLite's one connection). Only for a signed-in person: without
     * one the operation's caller check answers.
     */
    check?: (app: FastifyInstance, request: FlowRequest<R>, user: User) => Promise<void>;
    /**
     * How the route proves who the request comes from, when more than the session cookie (a code
     * proving a contact, an account registered in the same call); by default `principalOf`.
     */
    principal?: (app: FastifyInstance, request: FlowRequest<R>, input: Static<I>) => Promise<Principal>;
    /**
     * What the route does once the change has committed, outside its transaction — delivering an
     * admitted message, signing in through completeSignIn, clearing a cookie — and the family's data it
     * answers. A failure in it does not undo the change.
     */
    after?: (
      app: FastifyInstance,
      request: FlowRequest<R>,
      reply: FastifyReply,
      done: { output: Static<O>; principal: Principal },
    ) => Promise<unknown>;
  },
): FlowRoute {
  assertMountable(operation as unknown as Operation);
  const inputAt = route.method === 'GET' ? 'querystring' : 'body';
  const inputOf =
    route.input ??
    ((request: FlowRequest<R>) => (route.method === 'GET' ? request.query : request.body) as Static<I>);
  return flowRoute<R>({
    method: route.method,
    schema: route.prepare ? route.schema : { ...route.schema, [inputAt]: operation.input },
    data: route.data ?? operation.output,
    at: route.at,
    ...(route.bodyLimit && { bodyLimit: route.bodyLimit }),
    run: async (app, request, reply) => {
      if (route.check && request.session) await route.check(app, request, request.session.user);
      if (route.prepare && !request.session) throw new PassportError('notLoggedIn');
      const input = route.prepare ? await route.prepare(request) : inputOf(request);
      const principal = route.principal ? await route.principal(app, request, input) : principalOf(request);
      const output = await invoke(app, operation, input, principal, requestOf(app, request), {
        gate: gateFor(app, request),
      });
      if (route.after) return route.after(app, request, reply, { output, principal });
      return route.output ? route.output(output) : output;
    },
  });
}
