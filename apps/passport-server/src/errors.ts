import { type ErrorName, errors } from './protocol';

/**
 * A failure the client is told about: a stable catalogue name, the HTTP status from the catalogue
 * (200 for a business failure, 4xx for a protocol violation) and extra fields for the envelope's data.
 * The error handler turns it into the envelope of the route's source.
 */
export class PassportError extends Error {
  override name = 'PassportError';
  readonly code: number;
  readonly statusCode: number;

  constructor(
    readonly errorName: ErrorName,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    // An answer to the client (status below 500) carries no stack trace: only 5xx failures are logged,
    // and capturing one through Fastify's hook chain cost more than the rest of a signed-out
    // account/info check.
    const stackTraceLimit = Error.stackTraceLimit;
    if (errors[errorName].status < 500) Error.stackTraceLimit = 0;
    super(errors[errorName].en, options);
    Error.stackTraceLimit = stackTraceLimit;
    this.code = errors[errorName].code;
    this.statusCode = errors[errorName].status;
  }
}

export const fail = (name: ErrorName, extra?: Record<string, unknown>): never => {
  throw new PassportError(name, extra);
};
