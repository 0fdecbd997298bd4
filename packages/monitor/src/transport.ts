import { monitorPaths } from '@portico/account-sdk/protocol';
import type { FetchLike, NavigatorLike } from './environment';
import type { MonitorBatch } from './events';

/** How a batch leaves: `unloading` is true when the page is being hidden or closed. */
export type Transport = (batch: MonitorBatch, context: { unloading: boolean }) => unknown;

/** The collector's address on the page's origin: `/monitor/batch/` (spec §7, `paths.monitor`). */
export const DEFAULT_COLLECTOR_URL: string = monitorPaths.monitorBatch;

/**
 * JSON as `text/plain`: a CORS-safelisted type, so neither `sendBeacon` nor a cross-origin fetch
 * needs a preflight. The collector parses the body as JSON whatever its type says.
 */
const CONTENT_TYPE = 'text/plain;charset=UTF-8';

export interface BeaconTransportOptions {
  /** Where batches are posted. Default '/monitor/batch/'. */
  url?: string;
  /** Default: the global `navigator`, looked up per batch. */
  navigator?: NavigatorLike | undefined;
  /** Default: the global `fetch`, looked up per batch. */
  fetch?: FetchLike | undefined;
}

/**
 * The default transport: a keep-alive `fetch` without credentials; while the page is being hidden,
 * `navigator.sendBeacon` first (the browser delivers it after the page is gone), the fetch when the
 * beacon is refused or missing. Failures are dropped: monitoring never disturbs the page.
 */
export function beaconTransport(options: BeaconTransportOptions = {}): Transport {
  const url = options.url ?? DEFAULT_COLLECTOR_URL;
  return (batch, { unloading }) => {
    const body = JSON.stringify(batch);
    const navigator = options.navigator ?? (globalThis as { navigator?: NavigatorLike }).navigator;
    if (unloading && typeof navigator?.sendBeacon === 'function') {
      try {
        if (navigator.sendBeacon(url, body)) return;
      } catch {
        // Refused (too large, bad address): the fetch below tries.
      }
    }
    const globalFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetch =
      options.fetch ??
      (globalFetch ? (u: string, init: Parameters<FetchLike>[1]) => globalFetch(u, init) : undefined);
    if (!fetch) return;
    return fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': CONTENT_TYPE },
      keepalive: true,
      credentials: 'omit',
    }).catch(() => undefined);
  };
}
