import { describe, expect, it } from 'vitest';
import { createAccountClient } from '../src';

describe('createAccountClient', () => {
  it('throws at once, with the fix, when aid is missing', () => {
    expect(() => createAccountClient({ baseUrl: 'https://p.example' } as never)).toThrow(
      /options\.aid is required: pass your app id, e\.g\. \{ aid: 1128 \}/,
    );
    expect(() => createAccountClient(undefined as never)).toThrow(TypeError);
  });

  it('throws at once on an unknown source', () => {
    expect(() => createAccountClient({ aid: 1, baseUrl: 'https://p', source: 'desktop' as never })).toThrow(
      /source must be web, app or sso, not desktop/,
    );
  });

  it('throws at once on a timeout that is not a positive number', () => {
    expect(() => createAccountClient({ aid: 1, baseUrl: 'https://p', timeout: 0 })).toThrow(/timeout/);
  });

  it('throws at once outside a browser without a base URL, naming baseUrl', () => {
    expect(() => createAccountClient({ aid: 1 })).toThrow(/pass baseUrl/);
  });

  it('defaults to the web source and zh', () => {
    expect(createAccountClient({ aid: 1, baseUrl: 'https://p' })).toMatchObject({
      aid: '1',
      source: 'web',
      language: 'zh',
    });
  });

  it('picks the base URL of a region from the regions map, sg by default', () => {
    const regions = { sg: 'https://sg.example', va: 'https://va.example' };
    expect(createAccountClient({ aid: 1, regions }).baseUrl).toBe('https://sg.example');
    expect(createAccountClient({ aid: 1, regions, region: 'va' }).baseUrl).toBe('https://va.example');
    expect(createAccountClient({ aid: 1, regions, region: 'va', baseUrl: 'https://x' }).baseUrl).toBe(
      'https://x',
    );
  });

  it('throws at once when a region has no base URL, saying how to add one', () => {
    expect(() => createAccountClient({ aid: 1, region: 'va' })).toThrow(
      /region va has no base URL: pass regions: \{ va:/,
    );
  });

  it('uses the page origin when in a browser and no base URL is given', () => {
    const g = globalThis as { location?: unknown };
    g.location = { href: 'https://page.example/' };
    try {
      expect(createAccountClient({ aid: 1 }).baseUrl).toBeUndefined();
    } finally {
      delete g.location;
    }
  });

  it('takes plugins through use(plugin), handing them the client, one of a name at a time', () => {
    const client = createAccountClient({ aid: 1, baseUrl: 'https://p' });
    let seen: unknown;
    const plugin = {
      name: 'monitor',
      setup: (c: unknown) => {
        seen = c;
        return { afterResponse: [() => {}] };
      },
    };
    const remove = client.use(plugin);
    expect(seen).toBe(client);
    expect(() => client.use(plugin)).toThrow(
      /the monitor plugin is in use already; call its remove function first/,
    );
    remove();
    expect(() => client.use(plugin)).not.toThrow();
    // A stale remove function leaves the plugin's later use in place.
    remove();
    expect(() => client.use(plugin)).toThrow(/in use already/);
  });
});
