import { describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner';
import { ConfigError, isLoopbackOrigin, loadConfig } from '../src/config';
import { startServer } from './support/server';

describe('configuration', () => {
  it('has working defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      defaultRegion: 'CN',
      publicOrigin: 'http://localhost:3000',
      devOutbox: 'auto',
    });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('asks DNS through the servers DNS_RESOLVER names, else the system’s', () => {
    expect(loadConfig({}).dnsResolver).toBeUndefined();
    expect(loadConfig({ DNS_RESOLVER: '127.0.0.1:5353,[::1]:53' }).dnsResolver).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
    ]);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'http://localhost'],
    ['PUBLIC_ORIGIN', 'localhost:3000'],
    ['ALLOWED_ORIGINS', 'https://ok.example.com,not a url'],
    ['DEFAULT_REGION', 'XX'],
    ['DEFAULT_REGION', 'cn'],
    ['SESSION_IDLE_SECONDS', '-5'],
    // Below the minimum: last use is written once a minute, so sessions in use would end.
    ['SESSION_IDLE_SECONDS', '59'],
    ['SESSION_IDLE_SECONDS', '299'],
    ['LOG_LEVEL', 'loud'],
    ['SECRET', 'short'],
    ['COOKIE_DOMAIN', 'not a domain'],
    ['DNS_RESOLVER', '127.0.0.1:5353, 10.0.0.1'],
    ['DNS_RESOLVER', '127.0.0.1,,10.0.0.1'],
  ])('stops with a message naming %s when it is %j', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrowError(new RegExp(`^Invalid setting ${variable}:`));
  });

  it('reads how long finished webhook deliveries are kept: 30 days by default, whole days only', () => {
    expect(loadConfig({}).webhooks.deliveryRetentionDays).toBe(30);
    expect(loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: '7' }).webhooks.deliveryRetentionDays).toBe(7);
    for (const value of ['0', '-1', '1.5', 'week', '10000'])
      expect(() => loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: value }), value).toThrowError(
        /^Invalid setting WEBHOOK_DELIVERY_RETENTION_DAYS:/,
      );
  });

  it('refuses an absolute session timeout shorter than the idle one', () => {
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: '600', SESSION_ABSOLUTE_SECONDS: '60' })).toThrowError(
      /SESSION_ABSOLUTE_SECONDS/,
    );
  });

  it('trusts the other loopback spellings of a loopback public origin, on its scheme and port only', () => {
    expect(loadConfig({ PORT: '4100' }).allowedOrigins).toEqual([
      'http://127.0.0.1:4100',
      'http://[::1]:4100',
    ]);
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:5000' }).allowedOrigins).toEqual([
      'http://localhost:5000',
      'http://[::1]:5000',
    ]);
  });

  it('reads the lists and switches', () => {
    const config = loadConfig({
      ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/path',
      TRUST_PROXY: '2',
      ALLOWED_REGIONS: 'CN,HK',
      PUBLIC_ORIGIN: 'https://passport.example.com/',
      DEV_OUTBOX: 'off',
    });
    // A public origin that is not loopback adds no alias.
    expect(config.allowedOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.trustProxy).toBe(2);
    expect(config.allowedRegions).toEqual(['CN', 'HK']);
    expect(config.publicOrigin).toBe('https://passport.example.com');
  });

  it('refuses to publish the dev outbox on a public origin unless asked for by name', () => {
    // With no delivery provider, `auto` would put every code at /dev/outbox for whoever reaches it.
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://passport.example.com' })).toThrowError(
      /^Invalid setting DEV_OUTBOX: .*https:\/\/passport\.example\.com\/dev\/outbox/,
    );
    for (const allowed of [
      { DEV_OUTBOX: 'on' },
      { DEV_OUTBOX: 'off' },
      { SMTP_URL: 'smtp://mail.example.com:25', SMS_WEBHOOK_URL: 'https://sms.example.com/send' },
    ])
      expect(loadConfig({ PUBLIC_ORIGIN: 'https://passport.example.com', ...allowed }).devOutbox).toBe(
        allowed.DEV_OUTBOX ?? 'auto',
      );
    for (const local of [
      'http://localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'http://app.localhost',
    ])
      expect(loadConfig({ PUBLIC_ORIGIN: local }).devOutbox).toBe('auto');
  });

  it('tells loopback origins from the rest', () => {
    for (const local of ['http://localhost:1', 'http://127.0.0.1', 'http://127.9.8.7:3000', 'http://[::1]'])
      expect(isLoopbackOrigin(local), local).toBe(true);
    for (const remote of [
      'https://passport.example.com',
      'http://10.0.0.1',
      'http://localhost.example.com',
      'http://[::2]',
    ])
      expect(isLoopbackOrigin(remote), remote).toBe(false);
  });
});

describe('the start banner', () => {
  const bannerOf = async (overrides: Parameters<typeof startServer>[0]) => {
    const server = await startServer(overrides);
    try {
      return startBanner(server.config, server.app);
    } finally {
      await server.close();
    }
  };

  it('says who can read the dev outbox: this machine on loopback, anyone on a public origin', async () => {
    const local = await bannerOf({});
    expect(local).toContain('Portico passport server on http://localhost:3000');
    expect(local).toMatch(
      /dev outbox \(codes you "send" land here, readable by this machine\): .*\/dev\/outbox/,
    );
    const published = await bannerOf({ publicOrigin: 'https://passport.example.com', devOutbox: 'on' });
    expect(published).toContain(
      'dev outbox (codes you "send" land here, readable by ANYONE who reaches this server): https://passport.example.com/dev/outbox',
    );
    expect(await bannerOf({ devOutbox: 'off' })).not.toContain('dev outbox');
  });
});
