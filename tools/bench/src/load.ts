import autocannon from 'autocannon';

/** The longest any one measured load may run, in seconds (warm-up not included). */
export const MAX_SECONDS = 10;

export interface LoadCase {
  url: string;
  /** Requests cycled per connection; a `setupRequest` may hand out a fresh body each time. */
  requests: autocannon.Request[];
  connections: number;
  /** Run for this long (≤ MAX_SECONDS) … */
  seconds?: number;
  /** … or send exactly this many requests (stopped at MAX_SECONDS all the same). */
  amount?: number;
  /** A warm-up run of this many seconds first, not counted (only for repeatable requests). */
  warmupSeconds?: number;
  /** At most this many requests per second over all connections (autocannon's overallRate). */
  overallRate?: number;
  /** True when a response body is the expected success; anything else is counted as a failure. */
  verify: (body: string) => boolean;
}

/** What one or more runs of a case recorded. */
export interface Sample {
  /** Every response time, ms. */
  latencies: number[];
  /** From the start of the run to its last response, s. */
  seconds: number;
  /** Responses that were not the expected success (wrong status, error envelope, socket error, timeout). */
  failures: number;
}

export interface Figures {
  /** Completed responses per second. */
  rps: number;
  p50: number;
  p99: number;
  total: number;
  seconds: number;
  failures: number;
}

function once(c: LoadCase, seconds: number | undefined, amount: number | undefined): Promise<Sample> {
  const latencies: number[] = [];
  const start = performance.now();
  let last = start;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: c.url,
        connections: amount === undefined ? c.connections : Math.min(c.connections, amount),
        pipelining: 1,
        timeout: 10,
        requests: c.requests,
        verifyBody: (body) => c.verify(String(body)),
        ...(c.overallRate ? { overallRate: c.overallRate } : {}),
        ...(amount === undefined ? { duration: seconds ?? MAX_SECONDS } : { amount }),
      },
      (error, result) => {
        clearTimeout(cap);
        if (error) return reject(error);
        // autocannon notices the end of an `amount` run only at its next 1 s tick, so its own duration
        // is rounded up; the time of the last response is the honest end.
        // A non-2xx answer fails verify too (its body is an error envelope), so it is in `mismatches`;
        // `errors` counts socket errors and timeouts.
        resolve({ latencies, seconds: (last - start) / 1000, failures: result.mismatches + result.errors });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
      last = performance.now();
    });
    // The hard bound: whatever the case asked for, no load runs longer than MAX_SECONDS (+1 s slack).
    const cap = setTimeout(() => instance.stop(), (MAX_SECONDS + 1) * 1000);
  });
}

/** Runs one case with autocannon on loopback and returns what it recorded (warm-up discarded). */
export async function load(c: LoadCase): Promise<Sample> {
  if (c.seconds !== undefined && c.seconds > MAX_SECONDS)
    throw new Error(`a case may run ${MAX_SECONDS} s at most`);
  if (c.warmupSeconds) await once(c, c.warmupSeconds, undefined);
  return once(c, c.seconds, c.amount);
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) : Number.NaN;

/** Figures of one or more runs of the same case taken together. */
export function figures(samples: Sample[]): Figures {
  const all = Float64Array.from(samples.flatMap((s) => s.latencies)).sort();
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  return {
    rps: all.length / seconds,
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    total: all.length,
    seconds,
    failures: samples.reduce((sum, s) => sum + s.failures, 0),
  };
}
