import { randomBytes } from 'node:crypto';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config';
import type { MailProvider, SmsProvider } from './delivery/providers';
import { PassportError } from './errors';
import { callbackHook } from './lib/hooks';
import { languageOf } from './lib/respond';
import { collectRoutes } from './lib/route-inventory';
import { defaultLimits, type Limits } from './limits';
import accounts from './plugins/app/accounts';
import challenge from './plugins/app/challenge';
import codes from './plugins/app/codes';
import csrf from './plugins/app/csrf';
import db from './plugins/app/db';
import delivery from './plugins/app/delivery';
import devices from './plugins/app/devices';
import housekeeping from './plugins/app/housekeeping';
import mixMode from './plugins/app/mix-mode';
import passwords from './plugins/app/passwords';
import risk from './plugins/app/risk';
import secret from './plugins/app/secret';
import sessions from './plugins/app/sessions';
import store from './plugins/app/store';
import tokens from './plugins/app/tokens';
import cookie from './plugins/external/cookie';
import cors from './plugins/external/cors';
import formbody from './plugins/external/formbody';
import helmet from './plugins/external/helmet';
import swagger from './plugins/external/swagger';
import { type ErrorName, errors, errorText, failureEnvelope, LOG_ID_HEADER } from './protocol';
import appRoutes from './routes/app/index';
import outboxRoutes from './routes/dev/outbox';
import familyRoutes from './routes/families';
import siteRoutes from './routes/site/index';
import ssoRoutes from './routes/sso/index';
import vcDevAnswer from './routes/vc/dev-answer';
import vcRoutes from './routes/vc/index';
import webRoutes from './routes/web/index';

/** What the embedding code (start, tests, benchmarks) may hand in besides the config. */
export interface BuildOptions {
  /** Where log lines go; stdout by default. */
  logStream?: DestinationStream;
  /** Replace the configured SMS provider. */
  sms?: SmsProvider;
  /** Replace the configured mail provider. */
  mail?: MailProvider;
  /** The fetch the SMS webhook uses. */
  fetch?: typeof fetch;
  /** The clock, in ms since the epoch. */
  now?: () => number;
  /** Override the security numbers (tests lower caps to reach them quickly). */
  limits?: Partial<Limits>;
  /** Extra plugins registered after the built-in routes (embedding, tests, benchmarks). */
  plugins?: FastifyPluginAsync[];
}

export interface Runtime {
  now: () => number;
  limits: Limits;
  sms: SmsProvider | undefined;
  mail: MailProvider | undefined;
  fetch: typeof fetch;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    runtime: Runtime;
  }
}

let stampSecond = -1;
let stamp = '';
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A log id like the passport's: time to the second plus 12 random hex digits. It names a request in
 * the logs and is no secret, so the stamp is formatted once a second and the random digits come from
 * a pool drawn 3 KiB at a time (one `randomBytes` and one Date format per request cost ~4 µs).
 */
function logId(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  }
  if (poolOffset + 6 > pool.length) {
    pool = randomBytes(6 * 512);
    poolOffset = 0;
  }
  const digits = pool.toString('hex', poolOffset, poolOffset + 6).toUpperCase();
  poolOffset += 6;
  return stamp + digits;
}

/**
 * One access line per request instead of Fastify's pair ("incoming request" + "request completed"):
 * method, path without the query (which may carry a code or a ticket), status and response time, with
 * the logid every request's lines carry. It is written when the response has finished, where Fastify
 * wrote its "request completed". Errors are logged as before: a response that ended in an error keeps
 * Fastify's "request errored" line, and stream, serializer and handler errors are not touched.
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const url = request.url;
    const query = url.indexOf('?');
    request.log.info(
      {
        method: request.method,
        path: query === -1 ? url : url.slice(0, query),
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/**
 * PostgreSQL refusing a value the client sent (a NUL byte in text, an untranslatable character, a
 * string or number out of the column's range): malformed input, a 400, not a server failure.
 */
const REFUSED_INPUT = new Set(['22021', '22P05', '22001', '22003', '22P02']);
function isRefusedInput(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && REFUSED_INPUT.has(code);
}

/** Errors from the database or Redis being away: a 503, never a 500 and never a silent success. */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P03',
      '08006',
      '08001',
      '08003',
    ].includes(code)
  ) {
    return true;
  }
  const message = String((error as { message?: unknown }).message ?? '');
  return /Connection terminated|Connection is closed|Stream isn't writeable|Command timed out|is not queryable|Query read timeout|timeout exceeded when trying to connect|SQLITE_BUSY|database is locked/i.test(
    message,
  );
}

/** The catalogue name for a framework or validation error with a 4xx status. */
function clientErrorName(error: FastifyError): ErrorName {
  switch (error.statusCode) {
    case 404:
      return 'notFound';
    case 405:
      return 'methodNotAllowed';
    case 413:
      return 'payloadTooLarge';
    case 415:
      return 'unsupportedMediaType';
    case 429:
      return 'rateLimited';
    case 403:
      return 'csrfFailed';
    default:
      return 'invalidParam';
  }
}

function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  name: ErrorName,
  extra?: Record<string, unknown>,
) {
  const source = request.routeOptions?.config?.envelope ?? 'web';
  const { code } = errors[name];
  // Framework errors (a malformed URL) are answered before helmet's hooks run: nosniff is set here too.
  return reply
    .code(status)
    .header(LOG_ID_HEADER, request.id)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(failureEnvelope(source, code, errorText(code, languageOf(request)), extra));
}

/** Builds the passport server: plugins, routes and the one error handler. Call `listen` or `inject` on it. */
export async function buildServer(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Nothing secret reaches a log line: the request line is method and path only (no query), and any
      // field that could carry a credential is censored wherever it appears.
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'req.headers["x-tt-passport-csrf-token"]',
          'res.headers["set-cookie"]',
          'password',
          'code',
          'token',
          'secret',
          '*.password',
          '*.code',
          '*.token',
          '*.secret',
          '*.cookie',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req) => ({ method: req.method, path: (req.url ?? '').split('?')[0] }),
        res: (res) => ({ statusCode: res.statusCode }),
        err: (err: Error & { code?: unknown; statusCode?: unknown }) => ({
          type: err.name,
          message: err.message,
          code: err.code,
          statusCode: err.statusCode,
          stack: err.stack ?? '',
        }),
      },
    },
    logController: new AccessLog({ requestIdLogLabel: 'logid' }),
    genReqId: logId,
    requestIdHeader: false,
    trustProxy: config.trustProxy as boolean,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false },
    },
    frameworkErrors: (error, request, reply) => {
      sendFailure(request, reply, 400, clientErrorName(error));
    },
  });

  // First, so that every route (swagger's included) lands in the inventory the security tests walk.
  collectRoutes(app);
  app.decorate('config', config);
  app.decorate('runtime', {
    now: options.now ?? Date.now,
    limits: { ...defaultLimits, ...options.limits },
    sms: options.sms,
    mail: options.mail,
    fetch: options.fetch ?? fetch,
  });

  // Response schemas document the contract in OpenAPI; bodies are plain JSON so that a failure
  // envelope on a 200 is never reshaped by a success schema.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.addHook(
    'onRequest',
    callbackHook((request, reply) => {
      reply.header(LOG_ID_HEADER, request.id);
    }),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PassportError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'server failure');
      return sendFailure(request, reply, error.statusCode, error.errorName, error.extra);
    }
    if (error.validation) {
      const first = error.validation[0];
      const field = `${error.validationContext ?? 'request'}${first?.instancePath ?? ''}`;
      return sendFailure(request, reply, 400, 'invalidParam', { field });
    }
    const status = error.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendFailure(request, reply, status, clientErrorName(error));
    }
    if (isRefusedInput(error)) {
      request.log.warn({ err: error }, 'the database refused a value from the request');
      return sendFailure(request, reply, 400, 'invalidParam');
    }
    if (isUnavailable(error)) {
      request.log.error({ err: error }, 'a backing service is unavailable');
      return sendFailure(request, reply, 503, 'serviceUnavailable');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendFailure(request, reply, 500, 'internalError');
  });

  const apiNotFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendFailure(request, reply, 404, 'notFound');

  // Third-party wiring.
  await app.register(cookie);
  await app.register(formbody);
  await app.register(helmet);
  await app.register(cors);
  await app.register(swagger);

  // The app's own services.
  await app.register(db);
  await app.register(secret);
  await app.register(store);
  await app.register(sessions);
  await app.register(csrf);
  await app.register(mixMode);
  await app.register(delivery);
  await app.register(codes);
  await app.register(passwords);
  await app.register(accounts);
  await app.register(devices);
  await app.register(housekeeping);
  await app.register(tokens);
  await app.register(challenge);
  await app.register(risk);

  // Routes by path family.
  await app.register(appRoutes);
  await app.register(webRoutes);
  await app.register(familyRoutes);
  await app.register(vcRoutes);
  if (app.delivery.outbox) await app.register(outboxRoutes, { outbox: app.delivery.outbox });
  if (app.delivery.outbox) await app.register(vcDevAnswer);
  await app.register(ssoRoutes);
  // The web app and its legal documents; its not-found handler answers API paths with apiNotFound.
  await app.register(siteRoutes, { apiNotFound });
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  await app.ready();
  return app;
}
