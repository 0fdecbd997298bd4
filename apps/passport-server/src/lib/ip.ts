import { isIPv4, isIPv6 } from 'node:net';

/** Expands any textual IPv6 form to eight 16-bit groups; null when it is not IPv6. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return null;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two groups.
  const quad = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (quad?.[1]) {
    const [a, b, c, d] = quad[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The key a client address is rate-limited under: an IPv4 address as is (IPv4-mapped and
 * IPv4-compatible IPv6 included), an IPv6 address by its /64, whatever textual form it came in.
 * A client rotating addresses inside its /64 stays one client.
 */
export function rateLimitKey(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  if (isIPv4(trimmed)) return trimmed;
  const groups = ipv6Groups(trimmed);
  if (!groups) return `unknown:${trimmed.slice(0, 64)}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const mapped =
    g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0) && g6 + g7 > 0;
  if (mapped && (g5 === 0xffff || g6 !== 0)) return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  return `${[g0, g1, g2, g3].map((g) => g.toString(16)).join(':')}::/64`;
}
