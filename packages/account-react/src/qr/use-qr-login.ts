import { createQrLogin, type QrLoginOptions, type QrLoginSnapshot } from '@portico/account-sdk';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useAccountClient } from '../context';
import { useSignedIn } from '../session/signed-in';

export interface UseQrLoginOptions extends Pick<QrLoginOptions, 'next' | 'minIntervalMs' | 'maxIntervalMs'> {
  /** Start at once (default true); false keeps the flow idle until it turns true (a hidden tab). */
  enabled?: boolean;
}

export interface UseQrLoginResult extends QrLoginSnapshot {
  /** A new code: after expiry or cancellation, with one click. */
  refresh(): Promise<void>;
}

/**
 * QR sign-in for the browser that shows the code (docs/qr-login.md), over the SDK's `createQrLogin`:
 * asks for a code when enabled, polls with back-off while the page is visible, exposes the number to
 * show once the phone scanned, and on confirmation redeems the code — the answer becomes the session
 * (as every sign-in hook does), and `account.redirect_url` says where to go.
 */
export function useQrLogin({
  next,
  minIntervalMs,
  maxIntervalMs,
  enabled = true,
}: UseQrLoginOptions = {}): UseQrLoginResult {
  const client = useAccountClient();
  const done = useSignedIn();
  const flow = useMemo(
    () => createQrLogin(client, { next, minIntervalMs, maxIntervalMs }),
    [client, next, minIntervalMs, maxIntervalMs],
  );
  useEffect(() => {
    if (enabled) void flow.start();
  }, [flow, enabled]);
  useEffect(() => () => flow.dispose(), [flow]);
  const snapshot = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  useEffect(() => {
    if (snapshot.status === 'signed-in' && snapshot.account) void done(snapshot.account);
  }, [snapshot.status, snapshot.account, done]);
  const refresh = useCallback(() => flow.refresh(), [flow]);
  return { ...snapshot, refresh };
}
