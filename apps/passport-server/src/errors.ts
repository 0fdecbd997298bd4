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
    super(errors[errorName].en, options);
    this.code = errors[errorName].code;
    this.statusCode = errors[errorName].status;
  }
}

export const fail = (name: ErrorName, extra?: Record<string, unknown>): never => {
  throw new PassportError(name, extra);
};
