import { type MetricType, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import { lookupGlobal } from '../environment';
import type { Collector } from '../monitor';

/** The `web-vitals` functions the collector registers with; tests hand in their own. */
export type WebVitalsReporters = Record<
  'onCLS' | 'onFCP' | 'onINP' | 'onLCP' | 'onTTFB',
  (report: (metric: MetricType) => void) => void
>;

export interface WebVitalsOptions {
  /** Default the `web-vitals` package's `onCLS`, `onFCP`, `onINP`, `onLCP` and `onTTFB`. */
  reporters?: WebVitalsReporters;
}

/**
 * Records the Core Web Vitals (LCP, INP, CLS) and FCP and TTFB, through the `web-vitals` package,
 * each when it is final (often as the page is hidden: the monitor then sends at once). `web-vitals`
 * cannot unregister: after uninstalling, its reports are ignored, and installing again is not supported.
 */
export function webVitals(options: WebVitalsOptions = {}): Collector {
  const reporters = options.reporters ?? { onCLS, onFCP, onINP, onLCP, onTTFB };
  // The package reads the global `document` and `performance`: outside a browser it has nothing to report.
  const runnable = () => options.reporters !== undefined || lookupGlobal('document') !== undefined;
  return {
    name: 'web-vitals',
    install(monitor) {
      if (!monitor.sampled('web_vital') || !runnable()) return () => {};
      let active = true;
      const report = (metric: MetricType) => {
        if (!active) return;
        monitor.record('web_vital', {
          name: metric.name,
          // CLS is a unitless score; the others are milliseconds.
          value:
            metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value),
          rating: metric.rating,
          navigation_type: metric.navigationType,
        });
      };
      for (const register of Object.values(reporters)) {
        try {
          register(report);
        } catch {
          // A browser without the entry type behind this metric: the others still report.
        }
      }
      return () => {
        active = false;
      };
    },
  };
}
