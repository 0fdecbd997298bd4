import { Component, type ReactNode } from 'react';

/**
 * Catches a panel that cannot be shown — its chunk failed to load (an old chunk after a deploy, a
 * dropped connection) or it threw — and ends its request through `onError`, so the call that opened it
 * rejects as closed instead of the error unmounting the app's tree. Keyed by request: the next one
 * starts clean.
 */
export class PanelBoundary extends Component<
  { onError: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(): void {
    this.props.onError();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
