import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkedLookup, resolveTarget, TargetRefused } from '../webhooks/targets';

/**
 * Reading a SAML identity provider's metadata from the address it publishes it at (Okta, Entra,
 * Keycloak, ADFS each publish one), before the save's transaction (docs/enterprise-sso.md). The
 * outbound rule is the webhooks' (src/domain/webhooks/targets.ts): every address the host resolves to
 * must be public (loopback too only while this server is on loopback), and the connection goes only to
 * an address checked as it connects, so a name rebound to a private address between the check and the
 * fetch reaches nothing. One GET, no redirect followed, a deadline, a size bound.
 */

/** Why the metadata could not be read from its address: CONNECTION_METADATA_INVALID's `reason`. */
/**
 * Why the metadata could not be read. `refused`: the host does not resolve, or resolves to an address
 * that is not public; one reason for both, so that a manager cannot learn which internal host names
 * exist from the answers.
 */
export type MetadataFetchFailure = 'refused' | 'fetch' | 'timeout' | 'too_large';

/** What the route read, handed to the operation through the store as JSON. */
export type MetadataFetch = { xml: string } | { failed: MetadataFetchFailure };

/** A provider's own metadata is a few KiB (Entra's, with its WS-Federation roles, some 30 KiB). */
export const METADATA_MAX_BYTES = 512 * 1024;
/** The whole exchange, as the OpenID discovery's. */
export const METADATA_TIMEOUT_MS = 10_000;

/**
 * Where the route keeps what it read for the operation to take, once: by organisation and address as
 * the request named them (a hash: an address may be 2 KiB long).
 */
export const metadataKey = (subjectUid: string, metadataUrl: string) =>
  `sso:saml-metadata:${subjectUid}:${createHash('sha256').update(metadataUrl).digest('base64url')}`;

/**
 * GETs the metadata at `url` (already checked by normaliseMetadataUrl). Never throws: a failure is a
 * result, its reason never names a resolved address.
 */
export async function fetchIdpMetadata(
  url: URL,
  options: { privateTargets: boolean; timeoutMs?: number; maxBytes?: number },
): Promise<MetadataFetch> {
  const { privateTargets, timeoutMs = METADATA_TIMEOUT_MS, maxBytes = METADATA_MAX_BYTES } = options;
  try {
    // A literal address never reaches the connection's lookup: it is checked here, as a name is too.
    await resolveTarget(url.hostname, privateTargets);
  } catch (error) {
    if (error instanceof TargetRefused) return { failed: 'refused' };
    return { failed: 'fetch' };
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: MetadataFetch) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).get(url, {
      headers: {
        accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1',
        'user-agent': 'Portico-SSO/1',
      },
      lookup: checkedLookup(privateTargets),
      // No connection pool: each fetch resolves and checks the name again.
      agent: false,
    });
    const deadline = setTimeout(() => finish({ failed: 'timeout' }), timeoutMs);
    request.on('error', (error) =>
      finish({
        failed: error instanceof TargetRefused ? 'refused' : 'fetch',
      }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      // A redirect is not followed (its target would escape the check): give the address it names.
      if (status < 200 || status >= 300) return finish({ failed: 'fetch' });
      if (Number(response.headers['content-length'] ?? 0) > maxBytes) return finish({ failed: 'too_large' });
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish({ failed: 'too_large' });
        chunks.push(chunk);
      });
      response.on('end', () => finish({ xml: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', () => finish({ failed: 'fetch' }));
    });
  });
}
