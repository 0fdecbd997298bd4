import http from 'node:http';
import https from 'node:https';
import { checkedLookup, parseTarget } from './targets';

/** What one attempt got back: the status, how long it took, the response's first characters. */
export interface AttemptResult {
  status: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** Bytes of the response read at most; the rest is not waited for. */
  maxResponseBytes: number;
  privateTargets: boolean;
}

/** Characters of the response kept in the delivery log. */
export const EXCERPT_CHARS = 1000;

/**
 * POSTs one signed body to the endpoint. The connection goes only to an address checked at connect
 * time (src/domain/webhooks/targets.ts); no redirect is followed (a 3xx is a failure); the whole
 * exchange has a deadline and the response is read up to a cap. Never throws: a failure is a result.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, latencyMs: latency() });
    };
    let target: URL;
    try {
      target = parseTarget(url, options.privateTargets);
    } catch (error) {
      finish({ status: null, excerpt: null, error: (error as Error).message });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Portico-Webhooks/1',
      },
      lookup: checkedLookup(options.privateTargets),
      // No connection pool: each attempt resolves and checks the name again.
      agent: false,
    });
    const deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) => finish({ status: null, excerpt: null, error: error.message }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
        const status = response.statusCode ?? null;
        const ok = status !== null && status >= 200 && status < 300;
        finish({ status, excerpt: text || null, error: ok ? null : `the receiver answered ${status}` });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= options.maxResponseBytes) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough read: the rest is not waited for.
        if (size >= options.maxResponseBytes) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
