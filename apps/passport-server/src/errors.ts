import {
  ERROR_TEXTS,
  type ErrorEntry,
  type ErrorName,
  errorCatalogue,
  errors,
  type Language,
  type OrganisationErrorName,
  organisationErrors,
  organisationTexts,
} from './protocol';

/** Every name the server answers with: the account SDK's and the organisation SDK's (16xx). */
export type ServerErrorName = ErrorName | OrganisationErrorName;

/** The server's catalogue: the account SDK's ranges and the organisation range, with their texts. */
const catalogue = errorCatalogue([...ERROR_TEXTS, organisationTexts]);

/** Every catalogue entry the server answers with, by stable name. */
export const serverErrors = (() => {
  const out: Record<string, ErrorEntry> = { ...errors };
  for (const [key, { code }] of Object.entries(organisationErrors.codes)) out[key] = catalogue.entry(code)!;
  return out as Record<ServerErrorName, ErrorEntry>;
})();

/** The user-facing text of a code in the server's catalogue. */
export const serverErrorText = (code: number, language: Language): string => catalogue.text(code, language);

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
    readonly errorName: ServerErrorName,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    // An answer to the client (status below 500) carries no stack trace: only 5xx failures are logged,
    // and capturing one through Fastify's hook chain cost more than the rest of a signed-out
    // account/info check.
    const stackTraceLimit = Error.stackTraceLimit;
    if (serverErrors[errorName].status < 500) Error.stackTraceLimit = 0;
    super(serverErrors[errorName].en, options);
    Error.stackTraceLimit = stackTraceLimit;
    this.code = serverErrors[errorName].code;
    this.statusCode = serverErrors[errorName].status;
  }
}

export const fail = (name: ServerErrorName, extra?: Record<string, unknown>): never => {
  throw new PassportError(name, extra);
};
