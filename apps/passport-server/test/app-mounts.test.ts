import { readFileSync } from 'node:fs';
import { APPS, parseRouteList, routeMatcher, routePatterns } from '@portico/app-routes';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, loadConfig } from '../src/config';
import { landing } from '../src/routes/site/mounts';

/**
 * The apps the server serves (config.apps, from @portico/app-routes' list) and the route lists their
 * builds write: a router's tree becomes page patterns, the server matches paths against them.
 */

describe('the route list of an app', () => {
  const tree = [
    {
      path: '/',
      children: [
        { children: [{ index: true }, { path: 'home' }, { path: 'workbench' }] },
        { path: 'legal/open-source-notice' },
        { path: 'privacy-policy/:id?' },
        { path: 'login', children: [{ index: true }] },
        { path: 'docs/*' },
        { path: '*' },
      ],
    },
  ];

  it('holds every page of the router once, without the catch-all', () => {
    expect(routePatterns(tree)).toEqual([
      '/',
      '/docs/*',
      '/home',
      '/legal/open-source-notice',
      '/login',
      '/privacy-policy/:id?',
      '/workbench',
    ]);
  });

  it.each([
    ['/', true],
    ['/home', true],
    ['/HOME', true],
    ['/home/', true],
    ['/privacy-policy', true],
    ['/privacy-policy/2026-11-22', true],
    ['/privacy-policy/1/2', false],
    ['/legal/open-source-notice', true],
    ['/legal', false],
    ['/docs', true],
    ['/docs/a/b', true],
    ['/homeX', false],
    ['/nope', false],
    ['/h.me', false],
  ])('matches %s: %s', (path, expected) => {
    expect(routeMatcher(routePatterns(tree))(path)).toBe(expected);
  });

  it('matches nothing for an empty list, and reads only well-formed lists', () => {
    expect(routeMatcher([])('/')).toBe(false);
    expect(parseRouteList('{"routes":["/","/a"]}')).toEqual({ routes: ['/', '/a'] });
    for (const bad of ['[]', '{"routes":"/"}', '{"routes":["a"]}', '{"routes":[1]}', 'null'])
      expect(() => parseRouteList(bad), bad).toThrow(/route list/);
  });
});

describe('the apps in the config', () => {
  it('lists every app with its mount and default build folder, and reads their variables', () => {
    const config = loadConfig({});
    expect(config.apps.map(({ name, mount }) => ({ name, mount }))).toEqual([
      { name: 'sso', mount: '/sso/' },
      { name: 'app-webview', mount: '/app/' },
      { name: 'web', mount: '/' },
    ]);
    expect(config.apps.find((app) => app.name === 'web')?.dist).toMatch(/apps[\\/]web[\\/]dist$/);
    expect(config.apps.every((app) => app.host === undefined)).toBe(true);
    expect(config.ssoServices).toEqual([]);

    const set = loadConfig({
      SSO_HOST: 'sso.example.com',
      ALLOWED_ORIGINS: 'https://sso.example.com',
      SSO_DIST: '/srv/sso',
      WEB_DIST: '/srv/web',
      APP_WEBVIEW_DIST: '/srv/app',
      SSO_SERVICES: 'https://a.example.com/, http://127.0.0.1:4000',
    });
    expect(set.apps).toEqual([
      { name: 'sso', mount: '/sso/', dist: '/srv/sso', host: 'sso.example.com' },
      { name: 'app-webview', mount: '/app/', dist: '/srv/app' },
      { name: 'web', mount: '/', dist: '/srv/web' },
    ]);
    expect(set.ssoServices).toEqual(['https://a.example.com', 'http://127.0.0.1:4000']);
  });

  it('refuses a service that is no origin and a host that is no host name', () => {
    expect(() => loadConfig({ SSO_SERVICES: 'svc.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SSO_SERVICES: 'ftp://svc.example.com' })).toThrow(/SSO_SERVICES/);
    expect(() => loadConfig({ SSO_HOST: 'https://sso.example.com' })).toThrow(/SSO_HOST/);
    expect(() => loadConfig({ SSO_HOST: 'SSO.example.com' })).toThrow(/SSO_HOST/);
  });

  it('refuses an SSO_HOST whose origin the CSRF and CORS checks would not know, saying what to add', () => {
    expect(() => loadConfig({ SSO_HOST: 'sso.example.com' })).toThrow(
      'Invalid setting SSO_HOST: the sso app at sso.example.com calls the API from that origin: add it to ALLOWED_ORIGINS (e.g. http://sso.example.com)',
    );
    expect(
      loadConfig({ SSO_HOST: 'sso.localhost', ALLOWED_ORIGINS: 'http://sso.localhost:3000' }).apps[0]?.host,
    ).toBe('sso.localhost');
  });

  it('reads every variable the app list names', () => {
    for (const app of APPS) {
      expect(EnvSchema.properties).toHaveProperty(app.distVariable);
      if (app.hostVariable) expect(EnvSchema.properties).toHaveProperty(app.hostVariable);
      expect(app.mount).toMatch(/^\/([a-z0-9-]+\/)?$/);
    }
  });
});

describe('which app a request lands in', () => {
  const apps = [
    { name: 'sso', mount: '/sso/', dist: '/d/sso', host: 'sso.example.com' },
    { name: 'web', mount: '/', dist: '/d/web' },
  ];
  it.each([
    ['localhost', '/login', 'web', '/login', true],
    ['localhost', '/sso/login', 'sso', '/login', false],
    ['localhost', '/sso', 'sso', '/', false],
    ['localhost', '/SSO/Sign-Up', 'sso', '/Sign-Up', false],
    ['localhost', '/ssox', 'web', '/ssox', true],
    ['sso.example.com', '/login', 'sso', '/login', true],
    ['sso.example.com', '/sso/assets/a.js', 'sso', '/assets/a.js', false],
  ])('on %s, %s lands in %s as %s', (host, path, name, inner, atRoot) => {
    expect(landing(apps, host, path)).toEqual({
      app: apps.find((a) => a.name === name),
      path: inner,
      atRoot,
    });
  });
});

describe("the README's start command", () => {
  it('builds every app the server serves by default, so no page of it answers 503 after a start', () => {
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      scripts: { start: string };
    };
    const served = loadConfig({}).apps.map((app) => app.name);
    expect(served.length).toBeGreaterThanOrEqual(3);
    for (const name of served) expect(root.scripts.start).toContain(`--filter=@portico/${name} `);
  });
});
