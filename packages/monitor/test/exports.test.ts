import { expect, it } from 'vitest';
import * as monitor from '../src/index';

it('the public surface is exactly these run-time exports', () => {
  expect(Object.keys(monitor).sort()).toMatchInlineSnapshot(`
    [
      "BATCH_SIZE",
      "DEFAULT_COLLECTOR_URL",
      "DEFAULT_SAMPLING",
      "FLUSH_WAIT_MS",
      "FUNNEL_STEPS",
      "SESSION_KEY",
      "beaconTransport",
      "captchaEvents",
      "createMonitor",
      "jsErrors",
      "monitorPlugin",
      "pageViews",
      "resourceErrors",
      "resourceTiming",
      "sanitizeUrl",
      "scrubText",
      "sessionStart",
      "webVitals",
    ]
  `);
});
