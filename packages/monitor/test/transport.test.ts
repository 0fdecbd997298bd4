import { paths } from '@portico/account-sdk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { beaconTransport, DEFAULT_COLLECTOR_URL, type MonitorBatch } from '../src/index';

const batch: MonitorBatch = {
  v: 1,
  session: 'abc',
  app: 'web',
  flavour: 'web',
  seq: 0,
  sent_at: 1,
  events: [],
};

describe('beaconTransport', () => {
  it("posts to the spec's monitoring path by default", () => {
    expect(DEFAULT_COLLECTOR_URL).toBe(paths.monitor.monitorBatch);
    expect(DEFAULT_COLLECTOR_URL).toBe('/monitor/batch/');
  });

  it('posts JSON as text/plain with a keep-alive fetch and no credentials while the page is shown', async () => {
    const fetch = vi.fn(async () => ({}));
    const sendBeacon = vi.fn(() => true);
    await beaconTransport({ url: '/collect', fetch, navigator: { sendBeacon } })(batch, { unloading: false });
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledWith('/collect', {
      method: 'POST',
      body: JSON.stringify(batch),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      keepalive: true,
      credentials: 'omit',
    });
  });

  it('uses sendBeacon while the page is being hidden, and the fetch when the beacon is refused or missing', () => {
    const fetch = vi.fn(async () => ({}));
    const sendBeacon = vi.fn(() => true);
    beaconTransport({ fetch, navigator: { sendBeacon } })(batch, { unloading: true });
    expect(sendBeacon).toHaveBeenCalledWith('/monitor/batch/', JSON.stringify(batch));
    expect(fetch).not.toHaveBeenCalled();

    sendBeacon.mockReturnValueOnce(false);
    beaconTransport({ fetch, navigator: { sendBeacon } })(batch, { unloading: true });
    beaconTransport({
      fetch,
      navigator: {
        sendBeacon: () => {
          throw new TypeError('Illegal invocation');
        },
      },
    })(batch, { unloading: true });
    beaconTransport({ fetch, navigator: {} })(batch, { unloading: true });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('swallows a failed fetch: monitoring never rejects into the page', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(
      beaconTransport({ fetch, navigator: {} })(batch, { unloading: false }),
    ).resolves.toBeUndefined();
  });
});
