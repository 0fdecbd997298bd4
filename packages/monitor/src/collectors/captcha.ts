import type { CaptchaLoaderHooks } from '@portico/captcha-loader';
import type { Collector, Monitor } from '../monitor';

const MESSAGE_MAX = 300;

/** A collector that also holds the hooks to pass to `createCaptchaLoader`. */
export interface CaptchaCollector extends Collector {
  /** Spread into `createCaptchaLoader({ aid, ...collector.hooks })`; quiet while not installed. */
  readonly hooks: Required<CaptchaLoaderHooks>;
}

/**
 * Records the challenge loader's events: the script loaded (after how many fall-backs, how long),
 * a candidate failed and the next was tried, or the load failed. Addresses lose their query.
 */
export function captchaEvents(): CaptchaCollector {
  let monitor: Monitor | undefined;
  return {
    name: 'captcha',
    install(target) {
      monitor = target;
      return () => {
        if (monitor === target) monitor = undefined;
      };
    },
    hooks: {
      onLoad(event) {
        if (!monitor) return;
        monitor.record('captcha', {
          phase: 'load',
          url: monitor.sanitizeUrl(event.url),
          elapsed_ms: Math.round(event.elapsedMs),
          fallbacks: event.fallbacks,
          ...(event.version === undefined ? {} : { version: event.version }),
        });
      },
      onFallback(event) {
        if (!monitor) return;
        monitor.record('captcha', {
          phase: 'fallback',
          url: monitor.sanitizeUrl(event.from),
          to: monitor.sanitizeUrl(event.to),
          elapsed_ms: Math.round(event.elapsedMs),
          message: monitor.scrubText(event.message, MESSAGE_MAX),
        });
      },
      onLoadError(error) {
        if (!monitor) return;
        monitor.record('captcha', {
          phase: 'error',
          url: monitor.sanitizeUrl(error.url),
          elapsed_ms: 0,
          message: monitor.scrubText(error.message, MESSAGE_MAX),
          error_type: error.type,
        });
      },
    },
  };
}
