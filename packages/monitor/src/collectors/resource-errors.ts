import type { Collector } from '../monitor';

interface ElementLike {
  tagName?: string;
  src?: string;
  href?: string;
  currentSrc?: string;
}

/**
 * Records images, scripts, stylesheets and media that fail to load (their `error` events do not
 * bubble, so the window hears them while capturing), once per address and page load.
 */
export function resourceErrors(): Collector {
  return {
    name: 'resource-errors',
    install(monitor) {
      const window = monitor.environment.window;
      if (!window || !monitor.sampled('resource_error')) return () => {};
      const seen = new Set<string>();
      const onError = (event: Event) => {
        const target = event.target as ElementLike | null | undefined;
        if (!target || target === (window as unknown) || typeof target.tagName !== 'string') return;
        const address = target.currentSrc || target.src || target.href || '';
        const url = address ? monitor.sanitizeUrl(address) : '';
        const tag = target.tagName.toLowerCase();
        if (seen.has(`${tag} ${url}`)) return;
        seen.add(`${tag} ${url}`);
        monitor.record('resource_error', { tag, url });
      };
      window.addEventListener('error', onError, true);
      return () => window.removeEventListener('error', onError, true);
    },
  };
}
