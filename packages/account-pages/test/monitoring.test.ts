import type { AccountClient } from '@portico/account-sdk';
import type { MonitorBatch } from '@portico/monitor';
import * as monitorModule from '@portico/monitor';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  monitoringCaptchaHooks,
  reportFunnel,
  resetMonitoringForTests,
  startMonitoring,
} from '../src/app/monitoring';

// Before too: other test files render screens that report funnel steps into the same module.
beforeEach(() => resetMonitoringForTests());
afterEach(() => resetMonitoringForTests());

/** The real monitor, its transport captured, every kind sampled, no storage. */
function loadWith(sent: MonitorBatch[]) {
  return async () => ({
    ...monitorModule,
    createMonitor: (options: monitorModule.MonitorOptions) =>
      monitorModule.createMonitor({
        ...options,
        transport: (batch) => void sent.push(batch),
        random: () => 0,
        storage: null,
      }),
  });
}

describe('startMonitoring', () => {
  it('waits for first paint, then installs the plugin and replays the funnel steps reported before', async () => {
    const sent: MonitorBatch[] = [];
    const plugins: unknown[] = [];
    const client = { use: (plugin: unknown) => void plugins.push(plugin) } as unknown as AccountClient;
    let painted!: () => void;
    const afterFirstPaint = () => new Promise<void>((resolve) => (painted = resolve));

    reportFunnel('method_shown', { method: 'mobile_code' });
    monitoringCaptchaHooks.onLoadError({ type: 'script', url: '/captcha.js?x=1', message: 'boom' });
    const started = startMonitoring({
      app: 1128,
      flavour: 'sso',
      client,
      afterFirstPaint,
      load: loadWith(sent),
    });
    expect(startMonitoring({ app: 1, flavour: 'web', client, afterFirstPaint })).toBe(started);
    reportFunnel('code_sent', { method: 'mobile_code' });
    await Promise.resolve();
    expect(plugins).toHaveLength(0);

    painted();
    const monitor = await started;
    expect(monitor).toBeDefined();
    expect(plugins).toHaveLength(1);
    reportFunnel('signed_in', { method: 'mobile_code' });
    monitor?.flush();

    const events = sent.flatMap((batch) => batch.events);
    expect(sent[0]).toMatchObject({ app: '1128', flavour: 'sso' });
    expect(events.filter((e) => e.kind === 'funnel').map((e) => (e as { step: string }).step)).toEqual([
      'method_shown',
      'code_sent',
      'signed_in',
    ]);
    expect(events.find((e) => e.kind === 'captcha')).toMatchObject({ phase: 'error', url: '/captcha.js' });
  });

  it('resolves undefined, never rejects, when the monitor cannot be loaded', async () => {
    const client = { use: () => undefined } as unknown as AccountClient;
    const monitor = await startMonitoring({
      app: 1128,
      flavour: 'web',
      client,
      afterFirstPaint: async () => undefined,
      load: () => Promise.reject(new Error('offline')),
    });
    expect(monitor).toBeUndefined();
  });
});
