import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionSealer } from '../../src/domain/enterprise/connections';
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
beforeAll(async () => {
  [server, idp] = await Promise.all([
    startSdkServer({}, { limits: { sendCooldownMs: 5 } }),
    startOidcPeer({
      clientId: 'portico',
      clientSecret: 'idp-secret',
      redirectUris: ['http://localhost:3000/cb'],
    }),
  ]);
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
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

    // A change of client id keeps the secret on file.
    const changed = await aff.saveSsoConnection(boss.client, {
      subject_uid: boss.sid,
      issuer: idp.issuer,
      client_id: 'portico-2',
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
        { protocol: 'oidc', issuer: idp.issuer, clientId: 'portico-2', secretChanged: false },
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
