import { hkdfSync } from 'node:crypto';
import { isIP } from 'node:net';
import type { Kysely, Selectable } from 'kysely';
import * as client from 'openid-client';
import { isLoopbackOrigin } from '../../config';
import type { Database, OrganisationSsoConnectionsTable } from '../../db/schema';
import { PassportError } from '../../errors';
import { createSealer, type Sealer } from '../tokens/seal';
import { isPublicAddress, resolveTarget, TargetRefused } from '../webhooks/targets';

/**
 * An organisation's OpenID Connect connection (docs/enterprise-sso.md): the issuer rule, the secret
 * sealed at rest, the discovery check and the SQL (each function takes the operation's transaction).
 */

export type ConnectionRow = Selectable<OrganisationSsoConnectionsTable>;

/**
 * An address literal that is not public unicast (the webhooks' rule: loopback, private, link-local,
 * shared, unspecified, IPv4-mapped forms of these, …), or a localhost name: never an issuer of a
 * public server.
 */
function privateLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare)) return !isPublicAddress(bare);
  return bare === 'localhost' || bare.endsWith('.localhost');
}

/**
 * The rule for an address a connection makes the server fetch (an OpenID issuer, a SAML identity
 * provider's metadata): https, not at a private address literal, no credentials; http and loopback
 * only while this server itself is on loopback (development, tests). Undefined when refused.
 */
function outboundUrl(raw: string, publicOrigin: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  const development = isLoopbackOrigin(publicOrigin);
  const loopbackHttp = url.protocol === 'http:' && isLoopbackOrigin(url.origin);
  const allowed =
    (url.protocol === 'https:' && (development || !privateLiteral(url.hostname))) ||
    (development && loopbackHttp);
  return allowed && !url.username && !url.password ? url : undefined;
}

/**
 * The issuer as kept: an address the outbound rule allows, without query or fragment. Else
 * CONNECTION_ISSUER_INVALID.
 */
export function normaliseIssuer(raw: string, publicOrigin: string): string {
  const url = outboundUrl(raw, publicOrigin);
  if (!url || url.search || url.hash) throw new PassportError('connectionIssuerInvalid');
  return url.href.replace(/\/$/, '');
}

/**
 * A SAML identity provider's metadata address as kept: the issuer's rule, a query allowed (Entra's
 * names the application), the fragment dropped (never sent). Else CONNECTION_METADATA_INVALID `url`.
 */
export function normaliseMetadataUrl(raw: string, publicOrigin: string): URL {
  const url = outboundUrl(raw, publicOrigin);
  if (!url) throw new PassportError('connectionMetadataInvalid', { reason: 'url' });
  url.hash = '';
  return url;
}

/**
 * Resolves the issuer's host and refuses it (CONNECTION_ISSUER_INVALID) when any address is not
 * public, unless this server itself is on loopback. Runs before any transaction; the answer names only
 * the reason (`refused` for both), never the address (which would map the internal network).
 */
export async function checkIssuerAddress(issuer: string, publicOrigin: string): Promise<void> {
  try {
    await resolveTarget(new URL(issuer).hostname, isLoopbackOrigin(publicOrigin));
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    // One reason for a host that does not resolve and one that is not public: which internal names
    // exist is not a manager's to learn from the answers.
    const reason =
      error.reason === 'private_address' || error.reason === 'unresolved' ? 'refused' : error.reason;
    throw new PassportError('connectionIssuerInvalid', { reason }, { cause: error });
  }
}

/**
 * Reads the issuer's discovery document through openid-client (which checks that it names this
 * issuer), before any transaction; CONNECTION_DISCOVERY_FAILED when it cannot.
 */
export async function discoverIssuer(issuer: string, clientId: string): Promise<void> {
  try {
    await client.discovery(new URL(issuer), clientId, undefined, undefined, {
      execute: issuer.startsWith('http:') ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
  } catch (error) {
    throw new PassportError('connectionDiscoveryFailed', {}, { cause: error });
  }
}

/** The client secrets' sealer: a key of its own (HKDF of the server secret), the subject id as AAD. */
export function connectionSealer(secret: Buffer) {
  const sealer: Sealer = createSealer(
    Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'portico/enterprise/oidc-client-secret/v1', 32)),
  );
  return {
    seal: (subjectId: string, value: string) => sealer.seal(value, subjectId),
    open: (subjectId: string, sealed: string) => sealer.open(sealed, subjectId),
  };
}

export const connectionOf = (tx: Kysely<Database>, subjectId: string) =>
  tx
    .selectFrom('organisation_sso_connections')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();

export async function saveConnection(
  tx: Kysely<Database>,
  row: ConnectionRow,
  exists: boolean,
): Promise<void> {
  if (exists)
    await tx
      .updateTable('organisation_sso_connections')
      .set({
        // A connection may change protocol (OpenID Connect to SAML and back): every column is the new one's.
        protocol: row.protocol,
        issuer: row.issuer,
        client_id: row.client_id,
        client_secret: row.client_secret,
        saml_sso_url: row.saml_sso_url,
        saml_certificates: row.saml_certificates,
        saml_metadata_url: row.saml_metadata_url,
        updated_at: row.updated_at,
      })
      .where('subject_id', '=', row.subject_id)
      .execute();
  else await tx.insertInto('organisation_sso_connections').values(row).execute();
}

export const deleteConnection = (tx: Kysely<Database>, subjectId: string) =>
  tx.deleteFrom('organisation_sso_connections').where('subject_id', '=', subjectId).execute();
