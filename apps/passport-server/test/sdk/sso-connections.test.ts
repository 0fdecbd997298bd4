import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkIssuerAddress,
  connectionSealer,
  normaliseIssuer,
} from '../../src/domain/enterprise/connections';
import { PassportError } from '../../src/errors';
import { type OidcPeer, startOidcPeer } from '../support/oauth-peers';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { eventsOf, manager, member, refused } from './organisation-helpers';

/**
 * An organisation's OpenID Connect connection through the real affiliate SDK, against a real OpenID
 * provider on loopback (oidc-provider): the server reads the issuer's discovery document before it
 * saves, keeps the client secret sealed and never answers it, and records every change without it.
 */

let server: SdkServer;
let idp: OidcPeer;
let idp2: OidcPeer;
beforeAll(async () => {
  const peer = () =>
    startOidcPeer({
      clientId: 'portico',
      clientSecret: 'idp-secret',
      redirectUris: ['http://localhost:3000/cb'],
    });
  [server, idp, idp2] = await Promise.all([
    startSdkServer({}, { limits: { sendCooldownMs: 5 } }),
    peer(),
    peer(),
  ]);
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
  await idp2?.close();
});

describe('an organisation’s OpenID Connect connection', () => {
  it('is saved once the issuer’s discovery is read; the secret is sealed and never answered', async () => {
    const boss = await manager(server);
    await rejectsWith(aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid }), 'connectionNotFound');
    await rejectsWith(
      aff.saveSsoConnection(boss.client, { subject_uid: boss.sid, issuer: idp.issuer, client_id: 'portico' }),
      'connectionSecretRequired',
    );
    const saved = await aff.saveSsoConnection(boss.client, {
      subject_uid: boss.sid,
      issuer: `${idp.issuer}/`,
      client_id: 'portico',
      client_secret: 'idp-secret',
    });
    expect(saved).toMatchObject({
      protocol: 'oidc',
      issuer: idp.issuer,
      client_id: 'portico',
      has_secret: true,
    });
    expect(JSON.stringify(saved)).not.toContain('idp-secret');
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toEqual(saved);

    const row = await server.app.db
      .selectFrom('organisation_sso_connections')
      .selectAll()
      .where('subject_id', '=', boss.sid)
      .executeTakeFirstOrThrow();
    expect(row.client_secret).not.toContain('idp-secret');
    expect(connectionSealer(server.app.secret).open(boss.sid, row.client_secret)).toBe('idp-secret');

    // A change of issuer or client id needs the secret again: the one on file is the old client's.
    await rejectsWith(
      aff.saveSsoConnection(boss.client, {
        subject_uid: boss.sid,
        issuer: idp.issuer,
        client_id: 'portico-2',
      }),
      'connectionSecretRequired',
    );
    await rejectsWith(
      aff.saveSsoConnection(boss.client, {
        subject_uid: boss.sid,
        issuer: idp2.issuer,
        client_id: 'portico',
      }),
      'connectionSecretRequired',
    );
    // The same issuer and client id keep the secret on file.
    const kept = await aff.saveSsoConnection(boss.client, {
      subject_uid: boss.sid,
      issuer: `${idp.issuer}/`,
      client_id: 'portico',
    });
    expect(kept).toMatchObject({ client_id: 'portico', has_secret: true });
    const changed = await aff.saveSsoConnection(boss.client, {
      subject_uid: boss.sid,
      issuer: idp.issuer,
      client_id: 'portico-2',
      client_secret: 'idp-secret-2',
    });
    expect(changed).toMatchObject({ client_id: 'portico-2', has_secret: true });

    await aff.removeSsoConnection(boss.client, { subject_uid: boss.sid });
    await rejectsWith(aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid }), 'connectionNotFound');
    const events = await eventsOf(server, boss.sid, 'organisation.sso_connection.');
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'organisation.sso_connection.saved',
        { protocol: 'oidc', issuer: idp.issuer, clientId: 'portico', secretChanged: true },
      ],
      [
        'organisation.sso_connection.saved',
        { protocol: 'oidc', issuer: idp.issuer, clientId: 'portico', secretChanged: false },
      ],
      [
        'organisation.sso_connection.saved',
        { protocol: 'oidc', issuer: idp.issuer, clientId: 'portico-2', secretChanged: true },
      ],
      ['organisation.sso_connection.removed', { protocol: 'oidc', issuer: idp.issuer }],
    ]);
    expect(JSON.stringify(events)).not.toContain('idp-secret');
  });

  it('refuses an issuer that is not https (or loopback here), and one whose discovery cannot be read', async () => {
    const boss = await manager(server);
    const save = (issuer: string) =>
      aff.saveSsoConnection(boss.client, {
        subject_uid: boss.sid,
        issuer,
        client_id: 'c',
        client_secret: 's',
      });
    for (const issuer of [
      'ftp://idp.example.com',
      'not a url',
      'http://idp.example.com',
      `${idp.issuer}?x=1`,
    ])
      await rejectsWith(save(issuer), 'connectionIssuerInvalid');
    // A loopback address with nothing behind it, and a server that is not this issuer.
    await rejectsWith(save('http://127.0.0.1:9'), 'connectionDiscoveryFailed');
    await rejectsWith(save(server.baseUrl), 'connectionDiscoveryFailed');
    await rejectsWith(aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid }), 'connectionNotFound');
  });

  it('on a public server, refuses an issuer at a non-public address, literal or resolved', async () => {
    const publicOrigin = 'https://passport.example.com';
    const invalid = (run: () => unknown) =>
      expect(Promise.resolve().then(run)).rejects.toMatchObject({ errorName: 'connectionIssuerInvalid' });
    for (const issuer of [
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:7f00:1]',
      'https://[::]',
      'https://0.0.0.0',
      'https://100.64.0.1',
      'https://10.0.0.8',
      'https://169.254.169.254',
      'https://[fd00::1]',
      'https://localhost',
      'http://127.0.0.1:9',
    ])
      await invalid(() => normaliseIssuer(issuer, publicOrigin));
    expect(normaliseIssuer('https://idp.example.com/', publicOrigin)).toBe('https://idp.example.com');
    expect(normaliseIssuer('https://93.184.215.14', publicOrigin)).toBe('https://93.184.215.14');
    // A name that resolves to loopback: refused with the reason only, never the address.
    const error = (await checkIssuerAddress('https://localhost', publicOrigin).catch(
      (e: unknown) => e,
    )) as PassportError;
    expect(error).toBeInstanceOf(PassportError);
    expect([error.errorName, error.extra]).toEqual(['connectionIssuerInvalid', { reason: 'refused' }]);
    expect(JSON.stringify(error.extra)).not.toContain('127.0.0.1');
    // This test server is on loopback: its loopback issuers stay allowed.
    await checkIssuerAddress('http://localhost:9', server.baseUrl);
  });

  it('needs sso:manage, before the server fetches anything', async () => {
    const boss = await manager(server);
    const reader = await member(server, boss, ['member:read']);
    await refused(
      aff.saveSsoConnection(reader.client, {
        subject_uid: boss.sid,
        issuer: idp.issuer,
        client_id: 'c',
        client_secret: 's',
      }),
      'permissionDenied',
    );
    await refused(aff.ssoConnectionInfo(reader.client, { subject_uid: boss.sid }), 'permissionDenied');
    await refused(aff.removeSsoConnection(reader.client, { subject_uid: boss.sid }), 'permissionDenied');
  });
});
