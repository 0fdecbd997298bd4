/**
 * Response envelopes by source, and the success rule for each (spec §5):
 * web `{message:'success', data}`; sso `{error_code:0, data}`; open auth `{status_code:0, data}`.
 * A business failure is HTTP 200 with the failure envelope; a protocol violation uses its HTTP status
 * and still carries an envelope with an error_code.
 */

/** Which envelope a response uses. `app` speaks the web envelope. */
export type EnvelopeSource = 'web' | 'app' | 'sso' | 'auth';

/** The fields every failure carries in its data. */
export interface FailureData {
  error_code: number;
  description: string;
  [field: string]: unknown;
}

export interface WebSuccess<T> {
  message: 'success';
  data: T;
}
export interface WebFailure {
  message: 'error';
  data: FailureData;
}
export interface SsoSuccess<T> {
  error_code: 0;
  description?: string;
  data: T;
}
export interface SsoFailure {
  error_code: number;
  description: string;
  data: FailureData;
}
export interface AuthSuccess<T> {
  status_code: 0;
  data: T;
}
export interface AuthFailure {
  status_code: number;
  status_msg: string;
  data: FailureData;
}

export const webSuccess = <T>(data: T): WebSuccess<T> => ({ message: 'success', data });
export const ssoSuccess = <T>(data: T): SsoSuccess<T> => ({ error_code: 0, description: '', data });
export const authSuccess = <T>(data: T): AuthSuccess<T> => ({ status_code: 0, data });

function failureData(code: number, description: string, extra?: Record<string, unknown>): FailureData {
  return { ...extra, error_code: code, description };
}
export const webFailure = (
  code: number,
  description: string,
  extra?: Record<string, unknown>,
): WebFailure => ({
  message: 'error',
  data: failureData(code, description, extra),
});
export const ssoFailure = (
  code: number,
  description: string,
  extra?: Record<string, unknown>,
): SsoFailure => ({
  error_code: code,
  description,
  data: failureData(code, description, extra),
});
export const authFailure = (
  code: number,
  description: string,
  extra?: Record<string, unknown>,
): AuthFailure => ({
  status_code: code,
  status_msg: description,
  data: failureData(code, description, extra),
});

/** Builds the failure envelope of a source. */
export function failureEnvelope(
  source: EnvelopeSource,
  code: number,
  description: string,
  extra?: Record<string, unknown>,
): WebFailure | SsoFailure | AuthFailure {
  if (source === 'sso') return ssoFailure(code, description, extra);
  if (source === 'auth') return authFailure(code, description, extra);
  return webFailure(code, description, extra);
}

/** Builds the success envelope of a source. */
export function successEnvelope<T>(
  source: EnvelopeSource,
  data: T,
): WebSuccess<T> | SsoSuccess<T> | AuthSuccess<T> {
  if (source === 'sso') return ssoSuccess(data);
  if (source === 'auth') return authSuccess(data);
  return webSuccess(data);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The success rule of a source: web message equals 'success'; sso error_code 0; auth status_code 0. */
export function isSuccess(source: EnvelopeSource, body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (source === 'sso') return body.error_code === 0;
  if (source === 'auth') return body.status_code === 0;
  return body.message === 'success';
}

/**
 * The failure fields of any envelope, normalised to `{error_code, description, …data}`. A body that is
 * no envelope at all yields error_code -1.
 */
export function failureOf(body: unknown): FailureData {
  if (!isRecord(body)) return { error_code: -1, description: '' };
  const data = isRecord(body.data) ? body.data : {};
  const code = data.error_code ?? body.error_code ?? body.status_code;
  const description = data.description ?? body.description ?? body.status_msg ?? '';
  return {
    ...data,
    error_code: typeof code === 'number' ? code : Number(code ?? -1),
    description: String(description),
  };
}
