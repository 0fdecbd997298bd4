import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

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
    ['LOG_LEVEL', 'loud'],
    ['SECRET', 'short'],
    ['COOKIE_DOMAIN', 'not a domain'],
  ])('stops with a message naming %s when it is %j', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrowError(new RegExp(`^Invalid setting ${variable}:`));
  });

  it('refuses an absolute session timeout shorter than the idle one', () => {
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: '600', SESSION_ABSOLUTE_SECONDS: '60' })).toThrowError(
      /SESSION_ABSOLUTE_SECONDS/,
    );
  });

  it('reads the lists and switches', () => {
    const config = loadConfig({
      ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/path',
      TRUST_PROXY: '2',
      ALLOWED_REGIONS: 'CN,HK',
      PUBLIC_ORIGIN: 'https://passport.example.com/',
    });
    expect(config.allowedOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.trustProxy).toBe(2);
    expect(config.allowedRegions).toEqual(['CN', 'HK']);
    expect(config.publicOrigin).toBe('https://passport.example.com');
  });
});
