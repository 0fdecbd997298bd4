import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { eventContextOf } from '../events/record';
import type { CallerSpec, Operation } from '../operations/define';
import { type FlowRequest, type FlowRoute, type FlowSchema, flowRoute } from '../routes/declare';
import { assertMountable, invoke, type Principal } from './invoke';

/**
 * Mounts an operation on today's path families as a flow route: the operation's input schema is the
 * route's body (POST) or query (GET), the session cookie proves the person, each row answers in its
 * family's envelope and fails in it, exactly as a flow route does.
 */

/** The person the session cookie proves (with when they last verified), or nobody. */
export const principalOf = (request: FastifyRequest): Principal =>
  request.session
    ? { kind: 'person', user: request.session.user, verifiedAt: request.session.verifiedAt }
    : { kind: 'anonymous' };

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
    /** The family's data from the operation's output; by default the output as it is. */
    output?: (output: Static<O>) => unknown;
    /** The documented success data; by default the operation's output schema. */
    data?: TSchema;
  },
): FlowRoute {
  assertMountable(operation as unknown as Operation);
  const inputAt = route.method === 'GET' ? 'querystring' : 'body';
  const inputOf =
    route.input ??
    ((request: FlowRequest<R>) => (route.method === 'GET' ? request.query : request.body) as Static<I>);
  return flowRoute<R>({
    method: route.method,
    schema: { ...route.schema, [inputAt]: operation.input },
    data: route.data ?? operation.output,
    at: route.at,
    run: async (app, request) => {
      // Where the request came from, read as the flows' own events read it.
      const { ip = null, deviceId = null } = eventContextOf(app, request);
      const output = await invoke(app, operation, inputOf(request), principalOf(request), { ip, deviceId });
      return route.output ? route.output(output) : output;
    },
  });
}
