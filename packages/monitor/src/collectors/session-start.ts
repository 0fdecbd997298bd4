import type { Collector } from '../monitor';

/** Records `session_start` once per session: the referring origin, the language and the viewport. */
export function sessionStart(): Collector {
  return {
    name: 'session-start',
    install(monitor) {
      if (!monitor.session.isNew) return () => {};
      const { window, document, navigator } = monitor.environment;
      let referrer = '';
      try {
        if (document?.referrer) referrer = new URL(document.referrer).origin;
      } catch {
        // Not an address: no referrer.
      }
      const width = window?.innerWidth;
      const height = window?.innerHeight;
      monitor.record('session_start', {
        referrer,
        language: navigator?.language ?? '',
        viewport: width && height ? `${width}x${height}` : '',
      });
      return () => {};
    },
  };
}
