import { lookupGlobal } from '../environment';
import type { Collector } from '../monitor';

/** The part of a `PerformanceEntry` an observer hands over. */
export interface PerformanceEntryLike {
  name: string;
  duration: number;
}

/** The part of a `PerformanceResourceTiming` entry the monitor reads. */
export interface ResourceEntryLike extends PerformanceEntryLike {
  initiatorType: string;
  transferSize?: number;
  decodedBodySize?: number;
}

/** The part of `PerformanceObserver` the monitor uses. */
export interface PerformanceObserverLike {
  observe(options: { type: string; buffered?: boolean }): void;
  disconnect(): void;
}

export type PerformanceObserverConstructor = new (
  callback: (list: { getEntries(): PerformanceEntryLike[] }) => void,
) => PerformanceObserverLike;

export interface ResourceTimingOptions {
  /** Default the global `PerformanceObserver`; without one nothing is recorded. */
  PerformanceObserver?: PerformanceObserverConstructor;
}

/** Calls are the `http` events' business, and the monitor's own posts must not report themselves. */
const SKIPPED_INITIATORS = new Set(['fetch', 'xmlhttprequest', 'beacon']);

/**
 * Records each resource the page loads (scripts, styles, images, fonts) with its duration, size and
 * whether the cache served it, from the entries buffered before installation on. Nothing is observed
 * in a session that does not sample `resource`.
 */
export function resourceTiming(options: ResourceTimingOptions = {}): Collector {
  return {
    name: 'resource-timing',
    install(monitor) {
      const Observer =
        options.PerformanceObserver ?? lookupGlobal<PerformanceObserverConstructor>('PerformanceObserver');
      if (!Observer || !monitor.sampled('resource')) return () => {};
      const observer = new Observer((list) => {
        // Observing `resource` only, every entry is a PerformanceResourceTiming.
        for (const entry of list.getEntries() as ResourceEntryLike[]) {
          if (SKIPPED_INITIATORS.has(entry.initiatorType)) continue;
          const transfer = entry.transferSize ?? 0;
          monitor.record('resource', {
            url: monitor.sanitizeUrl(entry.name),
            initiator: entry.initiatorType,
            duration_ms: Math.round(entry.duration),
            transfer_bytes: transfer,
            cached: transfer === 0 && (entry.decodedBodySize ?? 0) > 0,
          });
        }
      });
      try {
        observer.observe({ type: 'resource', buffered: true });
      } catch {
        // A browser without resource timing entries: nothing to record.
        return () => {};
      }
      return () => observer.disconnect();
    },
  };
}
