import type { Clock, DocumentLike } from './environment';

/** The spec's text for a script that takes too long (typo included): "LoadJSSDKMoreTan4000ms". */
export const timeoutMessage = (ms: number): string => `LoadJSSDKMoreTan${ms}ms`;
/** The spec's text for a script `error` event. */
export const SCRIPT_ERROR_MESSAGE = 'Failed to load SDK!';

/**
 * Appends one `<script src=url>` and settles when it loads (resolve), errors or outlasts `timeout`
 * (reject with the spec's message). Whatever settles first wins; a failed element is detached from
 * its handlers and removed, so a script that arrives late cannot report anything.
 */
export function injectScript(
  document: DocumentLike,
  clock: Clock,
  url: string,
  timeout: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    const settle = (error?: Error) => {
      clock.clearTimeout(timer);
      script.onload = null;
      script.onerror = null;
      if (!error) return resolve();
      script.remove();
      reject(error);
    };
    const timer = clock.setTimeout(() => settle(new Error(timeoutMessage(timeout))), timeout);
    script.onload = () => settle();
    script.onerror = () => settle(new Error(SCRIPT_ERROR_MESSAGE));
    script.async = true;
    script.src = url;
    const parent = document.head;
    if (!parent) return settle(new Error(`${SCRIPT_ERROR_MESSAGE} (document.head is missing)`));
    parent.appendChild(script as never);
  });
}
