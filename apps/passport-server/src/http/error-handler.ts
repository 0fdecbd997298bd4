import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PassportError, type ServerErrorName, serverErrors, serverErrorText } from '../errors';
import { languageOf } from '../lib/language';
import { type ErrorName, LOG_ID_HEADER } from '../protocol';
import { RENDERERS, SCIM_MEDIA_TYPE } from './envelopes';

/**
 * PostgreSQL refusing a value the client sent (a NUL byte in text, an untranslatable character, a
 * string or number out of the column's range): malformed input, a 400, not a server failure.
 */
const REFUSED_INPUT = new Set(['22021', '22P05', '22001', '22003', '22P02']);
function isRefusedInput(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && REFUSED_INPUT.has(code);
}

const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

/** Errors from the database or Redis being away: a 503, never a 500 and never a silent success. */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE.has(code)) return true;
  const message = String((error as { message?: unknown }).message ?? '');
  return /Connection terminated|Connection is closed|Stream isn't writeable|Command timed out|is not queryable|Query read timeout|timeout exceeded when trying to connect|SQLITE_BUSY|database is locked/i.test(
    message,
  );
}

/** The catalogue name for a framework or validation error with a 4xx status. */
export function clientErrorName(error: FastifyError): ErrorName {
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

/** Answers a failure in the envelope of the route's family (`config.envelope`, web by default). */
export function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  name: ServerErrorName,
  extra?: Record<string, unknown>,
) {
  const renderer = RENDERERS[request.routeOptions?.config?.envelope ?? 'web'];
  const { code } = serverErrors[name];
  const answer = renderer.failure({
    status,
    name,
    code,
    // The management API and SCIM speak to back ends and their logs: English.
    description: serverErrorText(
      code,
      renderer === RENDERERS.problem || renderer === RENDERERS.scim ? 'en' : languageOf(request),
    ),
    extra,
  });
  // RFC 9457's media type for the management API's problem details; RFC 7644's for SCIM.
  if (renderer === RENDERERS.problem) reply.type('application/problem+json; charset=utf-8');
  if (renderer === RENDERERS.scim) reply.type(SCIM_MEDIA_TYPE);
  // Framework errors (a malformed URL) are answered before helmet's hooks run: nosniff is set here too.
  return reply
    .code(answer.status)
    .header(LOG_ID_HEADER, request.id)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(answer.body);
}

/** How the API answers a path nobody serves: the JSON 404 envelope. */
export const apiNotFound = (request: FastifyRequest, reply: FastifyReply) =>
  sendFailure(request, reply, 404, 'notFound');

/** Errors Fastify meets before routing (a malformed URL, a bad content type): a 4xx envelope. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  sendFailure(request, reply, 400, clientErrorName(error));
}

/**
 * The one error handler: a catalogue failure in the route's envelope; validation and other 4xx as
 * INVALID_PARAM and friends; input the database refused as a 400; a backing service away as a 503;
 * anything else a logged 500 whose message never reaches the client.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PassportError) {
    if (error.statusCode >= 500) request.log.error({ err: error }, 'server failure');
    // What a refusal's answer leaves out (the address a refused target resolves to) goes to the log.
    else if (error.cause instanceof Error && 'detail' in error.cause)
      request.log.info(
        { err: error.cause, detail: error.cause.detail, refused: error.errorName },
        'request refused',
      );
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
}
