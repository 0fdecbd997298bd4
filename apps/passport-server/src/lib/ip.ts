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

/** Wider networks than the rate-limit key's, by prefix length, for the limits that count them too. */
export type WidePrefix = 48 | 32;

/**
 * The IPv6 network of `bits` (48 or 32) an address belongs to, in one spelling for every textual form;
 * null for IPv4 (IPv4-mapped IPv6 included) and for what is not an address. A client holding a /48
 * has 65,536 /64s: the limits that count per /64 also count per /48 and /32 (README, "Check registered").
 */
export function networkKey(address: string, bits: WidePrefix): string | null {
  const key = rateLimitKey(address);
  if (key.startsWith('unknown:') || !key.endsWith('::/64')) return null;
  const groups = key
    .slice(0, -'::/64'.length)
    .split(':')
    .slice(0, bits / 16);
  return `${groups.join(':')}::/${bits}`;
}
