import type { Collector, Monitor } from '../monitor';

const MESSAGE_MAX = 300;

/**
 * The hooks of `@portico/captcha-loader` (`CaptchaLoaderHooks`), as the monitor reads their events.
 * Written out rather than imported, so this package does not depend on the loader (a type test holds
 * them to the loader's own).
 */
export interface CaptchaHooks {
  onLoad(event: { url: string; version?: string; elapsedMs: number; fallbacks: number }): void;
  onFallback(event: { from: string; to: string; message: string; elapsedMs: number }): void;
  onLoadError(error: { type: string; url: string; message: string }): void;
}

/** A collector that also holds the hooks to pass to `createCaptchaLoader`. */
export interface CaptchaCollector extends Collector {
  /** Spread into `createCaptchaLoader({ aid, ...collector.hooks })`; quiet while not installed. */
  readonly hooks: CaptchaHooks;
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
