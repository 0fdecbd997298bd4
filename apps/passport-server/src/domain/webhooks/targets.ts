import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (docs/webhooks.md, "Targets"): a public unicast address only, unless the
 * development setting WEBHOOK_PRIVATE_TARGETS allows loopback, private and link-local ones. Every
 * address a name resolves to is checked — at registration, and again when each delivery connects (the
 * connection goes to the address that was checked), so a name that later resolves somewhere private
 * (DNS rebinding) reaches nothing.
 */

/**
 * Why a target is refused; the message is English and never names a resolved address (an answer or a
 * delivery record that did would map the internal DNS); `detail`, for the logs only, does.
 */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
  constructor(
    readonly reason: 'url' | 'scheme' | 'private_address' | 'unresolved',
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
  }
}

/** Whether the address is public unicast (not loopback, private, link-local, multicast, reserved, …). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it is.
  return ipaddr.process(address).range() === 'unicast';
}

/** The URL, checked for its form: http(s), no credentials, a host. */
export function parseTarget(url: string, privateTargets: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused('url', 'the url is not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TargetRefused('scheme', 'a webhook url is https');
  if (parsed.username || parsed.password)
    throw new TargetRefused('url', 'a webhook url carries no credentials');
  if (parsed.protocol === 'http:' && !privateTargets)
    throw new TargetRefused('scheme', 'a webhook url is https (http only with WEBHOOK_PRIVATE_TARGETS=on)');
  return parsed;
}

/** The host's addresses, each checked; a literal address is its own. */
export async function resolveTarget(
  hostname: string,
  privateTargets: boolean,
): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused('unresolved', `${host} does not resolve`);
    }
    if (addresses.length === 0) throw new TargetRefused('unresolved', `${host} does not resolve`);
  }
  if (!privateTargets)
    for (const { address } of addresses)
      if (!isPublicAddress(address))
        throw new TargetRefused(
          'private_address',
          `${host} resolves to an address that is not a public address (loopback, private and link-local targets are refused)`,
          `${host} resolves to ${address}, which is not a public address`,
        );
  return addresses;
}

/** Checks a URL for registration: its form and every address its host resolves to now. */
export async function checkTarget(url: string, privateTargets: boolean): Promise<URL> {
  const parsed = parseTarget(url, privateTargets);
  await resolveTarget(parsed.hostname, privateTargets);
  return parsed;
}

/**
 * The `lookup` a delivery's connection uses: it resolves the name again and checks every address, so
 * the socket connects only to an address that passed the check.
 */
export const checkedLookup =
  (privateTargets: boolean): LookupFunction =>
  (hostname, options, callback) => {
    resolveTarget(hostname, privateTargets).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0) {
          callback(new TargetRefused('unresolved', `${hostname} has no usable address`), '', 0);
          return;
        }
        if (options.all) (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
