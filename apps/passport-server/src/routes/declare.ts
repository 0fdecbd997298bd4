import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import { type TSchema, Type } from 'typebox';
import { type Envelope, RENDERERS } from '../http/envelopes';
import { authResponses, ssoResponses, webResponses } from '../schemas/common';

/**
 * One way to declare a flow's routes across the path families (spec §7): a flow route is declared once
 * with its schema, its success data and its handler, and lists the `[family, path]` rows it answers
 * at. Each row answers in its family's envelope, documents its response in it, and fails in it (the
 * error handler reads `config.envelope`). Handlers return the envelope's data and throw PassportError.
 */

/** The path families and the envelope each answers in. */
export const FAMILIES = {
  web: 'web',
  sso: 'sso',
  legacy: 'web',
  mobile: 'web',
  passport: 'web',
  aff: 'web',
  profile: 'web',
  download: 'web',
  /** Open authorization (/passport/open/…): `{status_code, status_msg, data}`. */
  open: 'auth',
} as const satisfies Record<string, Envelope>;

export type Family = keyof typeof FAMILIES;
type FamilyEnvelope = (typeof FAMILIES)[Family];

/** The schema of a flow route: input and documentation (summary, tags, consumes, querystring, body). */
export type FlowSchema = FastifySchema & { summary: string; tags: string[] };

/** The request of a route with schema `S`, its body and query typed from the TypeBox schemas. */
export type FlowRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

export interface FlowRoute<S extends FlowSchema = FlowSchema> {
  method: 'GET' | 'POST';
  /** A `response` in it is replaced by the one of each row's envelope. */
  schema: S;
  /** The success data. */
  data: TSchema;
  /** Answers besides the envelope's, for the documentation (a redirect). */
  responses?: Record<number, TSchema>;
  /** Where the flow answers. */
  at: readonly (readonly [family: Family, path: string])[];
  /** `csrf: false`: a POST another site's page makes (a SAML identity provider's); test/inventory lists why. */
  config?: { csrf: false };
  /**
   * Bytes a body may have, when more than the server's 64 KiB: a document the route takes whole (a SAML
   * response or an identity provider's metadata), whose schema bounds it.
   */
  bodyLimit?: number;
  /**
   * The envelope's data; `undefined` when the handler answered itself (a redirect). It returns a
   * promise only when it waits, so a synchronous answer (account/info) costs no promise.
   */
  run(app: FastifyInstance, request: FlowRequest<S>, reply: FastifyReply): unknown;
}

/** Declares a flow route; its handler's request is typed from the schema. */
export const flowRoute = <S extends FlowSchema>(route: FlowRoute<S>): FlowRoute =>
  route as unknown as FlowRoute;

/**
 * The spec's `need_redirect` (default 1, `DEFAULTS.needRedirect`): 0 answers the address in the
 * family's envelope instead of the 302, for a caller that navigates by itself (a native app's webview,
 * a page that opens a popup). Every redirect route takes it; logout keeps the spec's own `not_redirect`.
 */
const NeedRedirect = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 1,
    description: '1 (default): redirect (302); 0: answer {redirect_url} in the envelope instead',
  }),
);

/** A redirect route's answer with need_redirect=0. */
export const RedirectData = Type.Object({
  redirect_url: Type.String({ description: 'where the 302 would have sent the browser' }),
});

/** The route's query with `need_redirect` declared beside its own fields. */
function withNeedRedirect(querystring: unknown) {
  const own = (querystring as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
  return Type.Object({ ...own, need_redirect: NeedRedirect }, { additionalProperties: true });
}

/**
 * Declares a browser navigation: a GET that answers 302 to the address `to` gives, or with
 * `need_redirect=0` that address as data (failures in the family's envelope either way). `to` may set
 * cookies on the reply first.
 */
export const redirectRoute = <S extends FlowSchema>(route: {
  schema: S;
  at: FlowRoute['at'];
  /** Where the redirect goes, for the documentation. */
  description: string;
  to(app: FastifyInstance, request: FlowRequest<S>, reply: FastifyReply): string | Promise<string>;
}): FlowRoute =>
  flowRoute<S>({
    method: 'GET',
    schema: { ...route.schema, querystring: withNeedRedirect(route.schema.querystring) },
    data: RedirectData,
    responses: { 302: Type.Null({ description: route.description }) },
    at: route.at,
    run: async (app, request, reply) => {
      const target = await route.to(app, request, reply);
      if ((request.query as { need_redirect?: number }).need_redirect === 0) return { redirect_url: target };
      await reply.redirect(target, 302);
      return undefined;
    },
  });

/** Documentation-only response schemas in an envelope (bodies are serialised as they are). */
const RESPONSES: Record<FamilyEnvelope, (data: TSchema) => Record<string, TSchema>> = {
  web: webResponses,
  sso: ssoResponses,
  auth: authResponses,
};

/** One row of the route table: which family answers which path with which flow route. */
export interface RouteRow {
  family: Family;
  path: string;
  method: FlowRoute['method'];
  envelope: FamilyEnvelope;
  summary: string;
}

/** Every row of some flow routes, in order. */
export const rowsOf = (routes: readonly FlowRoute[]): RouteRow[] =>
  routes.flatMap((route) =>
    route.at.map(([family, path]) => ({
      family,
      path,
      method: route.method,
      envelope: FAMILIES[family],
      summary: route.schema.summary,
    })),
  );

/** Registers every row of the flow routes on `app`. */
export function registerFlowRoutes(app: FastifyInstance, routes: readonly FlowRoute[]): void {
  for (const route of routes) {
    for (const [family, path] of route.at) {
      const envelope = FAMILIES[family];
      const { success } = RENDERERS[envelope];
      const answer = (data: unknown) => (data === undefined ? undefined : success(data));
      app.route({
        method: route.method,
        url: path,
        schema: { ...route.schema, response: { ...RESPONSES[envelope](route.data), ...route.responses } },
        config: { envelope, ...route.config },
        ...(route.bodyLimit && { bodyLimit: route.bodyLimit }),
        handler: (request, reply) => {
          const data = route.run(app, request as FlowRequest<FlowSchema>, reply);
          return data instanceof Promise
            ? data.then((settled) => (settled === undefined ? reply : success(settled)))
            : answer(data);
        },
      });
    }
  }
}
