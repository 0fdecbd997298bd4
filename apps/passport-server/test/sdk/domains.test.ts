import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as aff from '@portico/affiliate-sdk';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/protocol';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { eventsOf, type Manager, manager, member, refused } from './organisation-helpers';

/**
 * An organisation's verified domains through the real affiliate SDK, checked through a real DNS
 * server on loopback (dns2) that the passport server is pointed at (DNS_RESOLVER): a domain is
 * verified only when its TXT record holds the organisation's value, and only one organisation can
 * verify a domain.
 */

/** The TXT records the loopback DNS server answers, by name; a name in `broken` answers SERVFAIL. */
const records = new Map<string, string[][]>();
const broken = new Set<string>();
const dnsServer = dns2.createServer({
  udp: true,
  handle(request, send) {
    const response = dns2.Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = question?.name.toLowerCase() ?? '';
    if (broken.has(name)) response.header.rcode = 2;
    else
      for (const data of records.get(name) ?? [])
        response.answers.push({
          name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          data,
          // The packet encodes the record itself when it is sent.
        } as (typeof response.answers)[number]);
    send(response);
  },
});

let server: SdkServer;
beforeAll(async () => {
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  server = await startSdkServer({ dnsResolver: [`127.0.0.1:${port}`] }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => {
  await server?.close();
  await dnsServer.close();
});

/** A domain no other test uses. */
const freshDomain = () => `d${randomBytes(4).toString('hex')}.example.com`;
/** Publishes TXT records at a name (each record a list of chunks, as DNS keeps long values). */
const publish = (name: string, ...txt: string[][]) => records.set(name, txt);

const add = (boss: Manager, domain: string) => aff.addDomain(boss.client, { subject_uid: boss.sid, domain });
const verify = (boss: Manager, domain: string) =>
  aff.verifyDomain(boss.client, { subject_uid: boss.sid, domain });

describe('verifying a domain by its DNS TXT record', () => {
  it('a manager adds a domain, publishes the record it was given, and the domain is verified', async () => {
    const boss = await manager(server);
    const domain = freshDomain();
    const added = await add(boss, ` ${domain.toUpperCase()}. `);
    expect(added).toMatchObject({ domain, verified: false, verified_at: null });
    expect(added.record_name).toBe(`_portico-verification.${domain}`);
    expect(added.record_value).toMatch(/^portico-verification=[A-Za-z0-9_-]{22}$/);

    // Not published yet: refused, with where to publish it.
    const early = await rejectsWith(verify(boss, domain), 'domainNotVerified');
    expect(early.data).toMatchObject({ reason: 'record_missing', record_name: added.record_name });

    // Another organisation's value and an SPF record beside it, ours split into chunks as DNS may.
    const value = added.record_value;
    publish(
      added.record_name,
      ['v=spf1 -all'],
      [value.slice(0, 10), value.slice(10)],
      ['portico-verification=x'],
    );
    const verified = await verify(boss, domain);
    expect(verified.verified).toBe(true);
    expect(verified.verified_at).toBeGreaterThan(0);
    // Verifying again changes nothing and records nothing more.
    expect(await verify(boss, domain)).toEqual(verified);

    const { items } = await aff.listDomains(boss.client, { subject_uid: boss.sid });
    expect(items).toEqual([verified]);
    const events = await eventsOf(server, boss.sid, 'organisation.domain.');
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['organisation.domain.added', { domain }],
      ['organisation.domain.verified', { domain }],
    ]);
    expect(events[0]?.actor).toMatchObject({ kind: 'identity', userId: boss.userId });
  });

  it('a wrong value is refused, and a DNS server that fails says so', async () => {
    const boss = await manager(server);
    const domain = freshDomain();
    const added = await add(boss, domain);
    publish(added.record_name, [`${added.record_value}x`]);
    expect((await rejectsWith(verify(boss, domain), 'domainNotVerified')).data).toMatchObject({
      reason: 'record_missing',
    });
    broken.add(added.record_name);
    expect((await rejectsWith(verify(boss, domain), 'domainNotVerified')).data).toMatchObject({
      reason: 'dns_unavailable',
    });
    broken.delete(added.record_name);
    publish(added.record_name, [added.record_value]);
    expect((await verify(boss, domain)).verified).toBe(true);
  });

  it('only one organisation can verify a domain; once removed, another can', async () => {
    const [first, second] = await Promise.all([manager(server, 'First'), manager(server, 'Second')]);
    const domain = freshDomain();
    const mine = await add(first, domain);
    const theirs = await add(second, domain);
    expect(theirs.record_value).not.toBe(mine.record_value);
    publish(mine.record_name, [mine.record_value], [theirs.record_value]);
    await verify(first, domain);
    await rejectsWith(verify(second, domain), 'domainTaken');

    await aff.removeDomain(first.client, { subject_uid: first.sid, domain });
    expect((await aff.listDomains(first.client, { subject_uid: first.sid })).items).toEqual([]);
    expect((await eventsOf(server, first.sid, 'organisation.domain.removed')).map((e) => e.data)).toEqual([
      { domain, verified: true },
    ]);
    expect((await verify(second, domain)).verified).toBe(true);
  });

  it('two organisations verifying one domain at the same moment: one holds it, the other is told', async () => {
    const [first, second] = await Promise.all([manager(server, 'First'), manager(server, 'Second')]);
    const domain = freshDomain();
    const [mine, theirs] = await Promise.all([add(first, domain), add(second, domain)]);
    publish(mine.record_name, [mine.record_value], [theirs.record_value]);
    const outcomes = await Promise.all(
      [first, second].map((boss) =>
        verify(boss, domain).then(
          () => 'verified',
          (error: { error_code?: number }) => error.error_code,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual([ErrorCode.domainTaken, 'verified'].sort());
    const owners = await server.app.db
      .selectFrom('organisation_domains')
      .select('subject_id')
      .where('verified_domain', '=', domain)
      .execute();
    expect(owners).toHaveLength(1);
  });

  it('refuses what is not a domain, a domain added twice, and one the organisation does not have', async () => {
    const boss = await manager(server);
    for (const bad of [
      'localhost',
      'user@example.com',
      '10.0.0.1',
      'exa mple.com',
      '-bad.example.com',
      'a..b',
      'https://example.com',
    ])
      await rejectsWith(add(boss, bad), 'domainInvalid');
    const domain = freshDomain();
    await add(boss, domain);
    await rejectsWith(add(boss, domain.toUpperCase()), 'domainExists');
    await rejectsWith(verify(boss, freshDomain()), 'domainNotFound');
    await rejectsWith(
      aff.removeDomain(boss.client, { subject_uid: boss.sid, domain: freshDomain() }),
      'domainNotFound',
    );
    // An internationalised name is kept in its ASCII form.
    expect((await add(boss, 'bücher.example')).domain).toBe('xn--bcher-kva.example');
  });

  it('needs sso:manage: a member without it is refused, one with it may act', async () => {
    const boss = await manager(server);
    const [reader, admin] = await Promise.all([
      member(server, boss, ['member:read']),
      member(server, boss, ['sso:manage']),
    ]);
    const domain = freshDomain();
    await refused(aff.addDomain(reader.client, { subject_uid: boss.sid, domain }), 'permissionDenied');
    await refused(aff.listDomains(reader.client, { subject_uid: boss.sid }), 'permissionDenied');
    await refused(aff.verifyDomain(reader.client, { subject_uid: boss.sid, domain }), 'permissionDenied');
    expect((await aff.addDomain(admin.client, { subject_uid: boss.sid, domain })).domain).toBe(domain);
    // Another organisation's manager cannot see or touch this one's domains.
    const stranger = await manager(server, 'Stranger');
    await refused(aff.listDomains(stranger.client, { subject_uid: boss.sid }), 'subjectNotFound');
  });
});
