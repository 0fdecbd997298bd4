import { authFailure, authSuccess, ssoFailure, ssoSuccess, webFailure, webSuccess } from '../protocol';

/** A failure as the error handler decided it: the catalogue entry, its text and the data's extra fields. */
export interface Failure {
  /** The HTTP status from the catalogue: 200 for a business failure, 4xx or 5xx otherwise. */
  status: number;
  /** The catalogue name (the account SDK's or the organisation range's). */
  name: string;
  code: number;
  description: string;
  extra: Record<string, unknown> | undefined;
}

/** How one envelope answers: a success's body, and a failure's status and body. */
export interface Renderer {
  success(data: unknown): unknown;
  failure(failure: Failure): { status: number; body: unknown };
}

/** The schema URN of a SCIM error answer (RFC 7644 §3.12). */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** SCIM's media type (RFC 7644 §3.1), for its answers and the bodies it sends. */
export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';

const web: Renderer = {
  success: webSuccess,
  failure: (f) => ({ status: f.status, body: webFailure(f.code, f.description, f.extra) }),
};

/**
 * RFC 6749 §5.2: `{error, error_description}` with 400 (401 for a client that failed to authenticate);
 * a business failure the catalogue answers with 200 is a 400 here. The open-auth token endpoint answers
 * in it; the catalogue code stays in the log, not in the body.
 */
function oauthError(status: number): string {
  if (status === 401) return 'invalid_client';
  if (status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}

/**
 * RFC 9457 problem details for the management API: a business failure the catalogue answers with 200
 * is a 404 when something is not there, a 409 when it is there already (a taken identifier), else a
 * 400; the passport's code and name come along.
 */
const problem: Renderer = {
  success: (data) => data,
  failure: (f) => {
    const status =
      f.status >= 400
        ? f.status
        : f.name.endsWith('NotFound')
          ? 404
          : /Taken$|Exists$|AlreadyPending$/.test(f.name)
            ? 409
            : 400;
    // The wire's name (ACCOUNT_NOT_FOUND) of the catalogue key (accountNotFound).
    const name = f.name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
    return {
      status,
      // The failure's own fields (field, reason, scope) as extension members (RFC 9457 §3.2).
      body: {
        ...f.extra,
        type: 'about:blank',
        title: name,
        status,
        detail: f.description,
        code: f.code,
        name,
      },
    };
  },
};

/**
 * The envelopes a route family answers in (spec §5), keyed by `config.envelope` of the route: web
 * `{message, data}` (the app API speaks it too), sso `{error_code, description, data}`, open auth
 * `{status_code, status_msg, data}`, and bare RFC 6749 errors for an OAuth token endpoint.
 */
export const RENDERERS = {
  web,
  app: web,
  sso: {
    success: ssoSuccess,
    failure: (f) => ({ status: f.status, body: ssoFailure(f.code, f.description, f.extra) }),
  },
  auth: {
    success: authSuccess,
    failure: (f) => ({ status: f.status, body: authFailure(f.code, f.description, f.extra) }),
  },
  oauth: {
    success: (data) => data,
    failure: (f) => {
      const status = Math.max(f.status, 400);
      return { status, body: { error: oauthError(status), error_description: f.description } };
    },
  },
  problem,
  /**
   * SCIM 2.0's error (RFC 7644 §3.12) for `/scim/v2`: the status as a string, a `scimType` when the
   * refusal names one (uniqueness, invalidFilter, …), the detail in English; statuses as the management
   * API's. The passport's name comes along for the logs of whoever reads it.
   */
  scim: {
    success: (data) => data,
    failure: (f) => {
      const { status } = problem.failure(f);
      const { scimType, detail } = (f.extra ?? {}) as { scimType?: unknown; detail?: unknown };
      return {
        status,
        body: {
          schemas: [SCIM_ERROR_SCHEMA],
          status: String(status),
          ...(typeof scimType === 'string' ? { scimType } : {}),
          detail: typeof detail === 'string' ? detail : f.description,
          code: f.code,
          name: f.name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase(),
        },
      };
    },
  },
} satisfies Record<string, Renderer>;

export type Envelope = keyof typeof RENDERERS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The envelope a route answers in (a key of RENDERERS); web by default. */
    envelope?: Envelope;
  }
}
