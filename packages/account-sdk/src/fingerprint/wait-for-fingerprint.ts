import { FINGERPRINT_WAIT } from '../protocol/client-defaults';

/**
 * Wraps a fingerprint provider so every request waits for it at most `ms` (default 1000), then uses ''.
 * The provider runs once; a slow answer still serves the requests after it arrives. A failing provider
 * gives ''.
 */
export function waitForFingerprint(
  provider: () => string | Promise<string>,
  ms: number = FINGERPRINT_WAIT,
): () => Promise<string> {
  let pending: Promise<string> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(provider)
      .catch(() => '');
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      pending,
      new Promise<string>((resolve) => (timer = setTimeout(resolve, ms, ''))),
    ]).finally(() => clearTimeout(timer));
  };
}
