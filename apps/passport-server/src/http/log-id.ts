import { randomBytes } from 'node:crypto';
import { callbackHook } from '../lib/hooks';
import { LOG_ID_HEADER } from '../protocol';

let stampSecond = -1;
let stamp = '';
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A log id like the passport's: time to the second plus 12 random hex digits. It names a request in
 * the logs and is no secret, so the stamp is formatted once a second and the random digits come from
 * a pool drawn 3 KiB at a time (one `randomBytes` and one Date format per request cost ~4 µs).
 */
export function logId(): string {
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

/** Every answer names its request: the log id in `x-tt-logid` (callback form: no promise per request). */
export const logIdHeader = callbackHook((request, reply) => {
  reply.header(LOG_ID_HEADER, request.id);
});
