import type { RequestConfig } from '../client/types';
import type { FailureData } from '../protocol/envelopes';

/**
 * What went wrong, for code that branches on it:
 * - `response`: the server answered with a failure envelope; `error_code` says why.
 * - `status`: the response carried no envelope (an HTTP error page, a proxy failure, a malformed body).
 * - `network`: no response at all (offline, DNS, connection refused).
 * - `timeout`: no response within the timeout (default 5000 ms).
 * - `aborted`: the caller's AbortSignal fired.
 * - `invalid`: the call was refused before sending (e.g. password login without an identifier).
 */
export type AccountErrorKind = 'response' | 'status' | 'network' | 'timeout' | 'aborted' | 'invalid';

/** Survives two copies of the SDK in one page, unlike `instanceof`. */
const BRAND = Symbol.for('portico.AccountError');

export interface AccountErrorInit {
  config?: RequestConfig | undefined;
  log_id?: string | undefined;
  /** The HTTP status, when a response arrived. */
  status?: number | undefined;
  cause?: unknown;
  /** Developer-facing context; the user-facing text is `description`. */
  message?: string | undefined;
}

/**
 * Every rejection of the SDK. Carries every field of the failure data as its own property, plus the
 * stable `error_code`, the user-facing `description` ('' when there is none), the server's `log_id`
 * and the request `config` (not enumerable, so logging an error never prints a password).
 */
export class AccountError extends Error {
  override readonly name = 'AccountError';
  declare readonly kind: AccountErrorKind;
  declare readonly error_code: number;
  declare readonly description: string;
  /** The `x-tt-logid` response header; '' when no response arrived. */
  declare readonly log_id: string;
  declare readonly status: number | undefined;
  /** The failure data as the server sent it. */
  declare readonly data: FailureData;
  declare readonly config: RequestConfig | undefined;
  [field: string]: unknown;

  constructor(kind: AccountErrorKind, failure: FailureData, init: AccountErrorInit = {}) {
    const { config, log_id = '', status, cause } = init;
    super(
      init.message ??
        `${config ? `${config.method} ${config.path} failed: ` : ''}${kind}${status ? ` (HTTP ${status})` : ''}, error_code ${
          failure.error_code
        }${failure.description ? ` "${failure.description}"` : ''}${log_id ? `, log id ${log_id}` : ''}`,
      { cause },
    );
    // The data's fields (error_code and description among them), none over an Error's own; then ours.
    for (const key in failure) if (!(key in this)) this[key] = failure[key];
    Object.assign(this, { kind, log_id, status, data: failure });
    Object.defineProperty(this, 'config', { value: config });
  }

  get [BRAND](): true {
    return true;
  }
}
/** True for an AccountError from any copy of the SDK; with `kind`, only for that kind. */
export function isAccountError(value: unknown, kind?: AccountErrorKind): value is AccountError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true &&
    (!kind || (value as AccountError).kind === kind)
  );
}
