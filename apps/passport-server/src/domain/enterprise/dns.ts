import { Resolver } from 'node:dns/promises';

/**
 * The DNS look-up of a domain's verification record, through the resolvers DNS_RESOLVER names (the
 * system's when unset). It runs before the operation, outside any transaction: a slow or dead DNS
 * server must not hold a database connection (docs/enterprise-sso.md).
 */

/** What a look-up found: the TXT strings at the name (each record's chunks joined), or why none. */
export type TxtLookup = { found: string[] } | { failed: 'unavailable' };

/** Per try; two tries per server. */
const TIMEOUT_MS = 2_500;
/** Answers that mean "no such record", not "could not ask". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export function txtResolver(servers: readonly string[] | undefined) {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: 2 });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  return async (name: string): Promise<TxtLookup> => {
    try {
      const records = await resolver.resolveTxt(name);
      return { found: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code && ABSENT.has(code)) return { found: [] };
      return { failed: 'unavailable' };
    }
  };
}
