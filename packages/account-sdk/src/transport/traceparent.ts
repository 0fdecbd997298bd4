import { hex, randomBytes } from '../protocol/hex';

/** A W3C `traceparent` with a fresh trace id and span id, sampled. */
export const traceparent = (): string => `00-${hex(randomBytes(16))}-${hex(randomBytes(8))}-01`;
