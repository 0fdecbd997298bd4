import type { HistoryLike } from '../environment';
import type { EventFields } from '../events';
import type { Collector } from '../monitor';

type Navigation = EventFields['page_view']['navigation'];

/**
 * Records the page the monitor starts on, then each history navigation (`pushState`, `replaceState`,
 * back and forward) that changes the page's sanitised address. `pushState` and `replaceState` are
 * wrapped while installed; a wrapper added over ours later is left in place and ours goes quiet.
 */
export function pageViews(): Collector {
  return {
    name: 'page-views',
    install(monitor) {
      // Most sessions do not sample page views (0.01): history stays untouched in them.
      if (!monitor.sampled('page_view')) return () => {};
      const window = monitor.environment.window;
      let active = true;
      let current = '';
      const visit = (navigation: Navigation) => {
        if (!active) return;
        const page = monitor.page();
        if (navigation !== 'load' && page === current) return;
        monitor.record('page_view', { navigation, from: current });
        current = page;
      };
      visit('load');
      if (!window) return () => {};

      const onPop = () => visit('pop');
      window.addEventListener('popstate', onPop);
      const history = window.history;
      /** Each wrapped method, what it was, and whether it was the object's own (else the prototype's). */
      const wrapped: Array<{
        method: keyof HistoryLike;
        original: HistoryLike[keyof HistoryLike];
        own: boolean;
        wrapper: unknown;
      }> = [];
      if (history) {
        for (const [method, navigation] of [
          ['pushState', 'push'],
          ['replaceState', 'replace'],
        ] as const) {
          const original = history[method];
          const wrapper: HistoryLike[typeof method] = function (this: HistoryLike, ...args) {
            const result = original.apply(this, args);
            visit(navigation);
            return result;
          };
          wrapped.push({ method, original, own: Object.hasOwn(history, method), wrapper });
          history[method] = wrapper;
        }
      }
      return () => {
        active = false;
        window.removeEventListener('popstate', onPop);
        for (const { method, original, own, wrapper } of wrapped) {
          if (!history || history[method] !== wrapper) continue;
          if (own) history[method] = original;
          else delete history[method];
        }
      };
    },
  };
}
