import { isIPv4, isIPv6 } from 'node:net';
import type { QrPlace } from '../../protocol';

/**
 * The approximate place a request came from, from its address alone: no geolocation service is asked
 * (none is configured, and sending every sign-in address to a third party is a leak of its own). The
 * phone shows whether the asking browser is on this machine, on a local network, or on the internet,
 * and the network with the host part hidden (IPv4 /24, IPv6 /48), which a person can compare with their
 * own network ("that is not my office"). docs/qr-login.md.
 */
export function placeOf(address: string): QrPlace {
  let ip = address.trim().replace(/^\[|\]$/g, '');
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped?.[1]) ip = mapped[1];
  if (isIPv4(ip)) {
    const [a = 0, b = 0, c = 0] = ip.split('.').map(Number);
    const kind =
      a === 127
        ? 'loopback'
        : a === 10 ||
            (a === 172 && b >= 16 && b <= 31) ||
            (a === 192 && b === 168) ||
            (a === 169 && b === 254)
          ? 'private'
          : 'public';
    return { kind, network: `${a}.${b}.${c}.0/24` };
  }
  if (isIPv6(ip)) {
    const lower = ip.toLowerCase();
    if (lower === '::1') return { kind: 'loopback', network: '::1/128' };
    const head = lower.split('::')[0] ?? '';
    const groups = head.split(':').filter(Boolean).slice(0, 3);
    while (groups.length < 3) groups.push('0');
    const first = Number.parseInt(groups[0] ?? '0', 16);
    const kind = (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 ? 'private' : 'public';
    return { kind, network: `${groups.join(':')}::/48` };
  }
  return { kind: 'public', network: 'unknown' };
}
