import type { RetryPatch, RetryRequest } from './types';

/** Marks a hook's return value as a resend request. */
export const RETRY: unique symbol = Symbol('portico.retry');

export const retryRequest = (patch: RetryPatch = {}): RetryRequest => ({ [RETRY]: patch });

export const isRetryRequest = (value: unknown): value is RetryRequest =>
  typeof value === 'object' && value !== null && RETRY in value;
