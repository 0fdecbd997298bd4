import { randomBytes } from 'node:crypto';
import { callbackHook } from '../lib/hooks';
import { LOG_ID_HEADER } from '../protocol';

let stampSecond = -1;
let stamp = '';
let digits = '';
let digitsOffset = 0;

/**
 * A log id like the passport's: time to the second plus 12 random hex digits. It names a request in
 * the logs and is no secret, so the stamp is formatted once a second and the random digits are cut
 * from a string of 6 KiB of upper-case hex drawn at once (one `randomBytes`, hex conversion and Date
 * format per request cost ~4 µs; a slice of a string costs next to nothing).
 */
export function logId(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  }
  if (digitsOffset + 12 > digits.length) {
    digits = randomBytes(6 * 512)
      .toString('hex')
      .toUpperCase();
    digitsOffset = 0;
  }
  const id = stamp + digits.slice(digitsOffset, digitsOffset + 12);
  digitsOffset += 12;
  return id;
}

/** Every answer names its request: the log id in `x-tt-logid` (callback form: no promise per request). */
export const logIdHeader = callbackHook((request, reply) => {
  reply.header(LOG_ID_HEADER, request.id);
});
