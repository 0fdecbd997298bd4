// A passkey sign-in's verification against raw P-256 signature verification, in one process and one
// run (docs/benchmarks.md, "Passkey sign-in"). Part of `pnpm bench`; alone: `BENCH_ONLY=passkey`.
//
// The passkey side is the server's own `verifyAuthentication` (SimpleWebAuthn, as a sign-in runs it:
// the authenticator data and client data read, the relying party, origin, challenge and user
// verification checked, the COSE key decoded, the signature verified, the counter judged). The raw side
// is node:crypto's ECDSA P-256/SHA-256 verify of the same signature over the same bytes with a key
// object made once: the floor no verifier can beat. Both run the same prepared assertions, one at a
// time, in alternating slices, so the machine's noise falls on both alike.
import { createHash, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { verifyAuthentication } from '@portico/passport-server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';
/** Assertions per slice, and slices per side (alternating, the first of each unmeasured). */
const PER_SLICE = 400;
const SLICES = 8;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Prepared {
  challenge: string;
  response: Parameters<typeof verifyAuthentication>[1];
  data: Buffer;
  signature: Buffer;
}

/** A credential (its COSE public key, as the server stores it) and its signing key. */
function credential(): { cose: string; privateKey: KeyObject; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x, 'base64url')],
    [-3, Buffer.from(jwk.y, 'base64url')],
  ]);
  return { cose: b64url(isoCBOR.encode(cose as never)), privateKey, publicKey };
}

/** One assertion as an authenticator makes it: user present and verified, counter `counter`. */
function assertion(privateKey: KeyObject, id: string, counter: number): Prepared {
  const challenge = b64url(sha256(`challenge ${counter} ${Math.random()}`));
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  const authData = Buffer.concat([sha256(RP_ID), Buffer.from([0x05]), counterBytes]);
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin: ORIGIN, crossOrigin: false }),
  );
  const data = Buffer.concat([authData, sha256(clientDataJSON)]);
  const signature = sign('sha256', data, privateKey);
  return {
    challenge,
    data,
    signature,
    response: {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    },
  };
}

export interface PasskeyFigures {
  passkeyPerSecond: number;
  rawPerSecond: number;
  ratio: number;
}

/** Runs both sides in alternating slices; per-second figures are the sums over the measured slices. */
export async function passkeyVerifyCost(log: (line: string) => void): Promise<PasskeyFigures> {
  const config = { rpId: RP_ID, rpName: 'Bench', origins: [ORIGIN] };
  const { cose, privateKey, publicKey } = credential();
  const id = b64url(sha256('bench credential'));
  const prepared = Array.from({ length: PER_SLICE }, (_, i) => assertion(privateKey, id, i + 1));
  const stored = { id, publicKey: cose, counter: 0, transports: ['internal'] };

  const passkeySlice = async () => {
    const start = process.hrtime.bigint();
    for (const p of prepared) {
      const info = await verifyAuthentication(config as never, p.response, p.challenge, stored);
      if (info.newCounter <= 0) throw new Error('the passkey verification did not verify');
    }
    return Number(process.hrtime.bigint() - start) / 1e9;
  };
  const rawSlice = async () => {
    const start = process.hrtime.bigint();
    for (const p of prepared)
      if (!verify('sha256', p.data, publicKey, p.signature)) throw new Error('raw P-256 did not verify');
    return Number(process.hrtime.bigint() - start) / 1e9;
  };

  let passkeySeconds = 0;
  let rawSeconds = 0;
  for (let slice = 0; slice < SLICES; slice++) {
    // Every other slice in reverse order; the first pair warms up and is not counted.
    const order = slice % 2 === 0 ? [passkeySlice, rawSlice] : [rawSlice, passkeySlice];
    const times = new Map<typeof passkeySlice, number>();
    for (const run of order) times.set(run, await run());
    if (slice === 0) continue;
    passkeySeconds += times.get(passkeySlice) ?? 0;
    rawSeconds += times.get(rawSlice) ?? 0;
  }
  const measured = PER_SLICE * (SLICES - 1);
  const figures = {
    passkeyPerSecond: measured / passkeySeconds,
    rawPerSecond: measured / rawSeconds,
    ratio: rawSeconds / passkeySeconds,
  };
  log(
    `passkey ${figures.passkeyPerSecond.toFixed(0)}/s, raw P-256 ${figures.rawPerSecond.toFixed(0)}/s (${(figures.ratio * 100).toFixed(0)} %)`,
  );
  return figures;
}

/** The markdown rows `pnpm bench` prints for it. */
export function passkeyReport(f: PasskeyFigures): string[] {
  return [
    '| case | per s | |',
    '|---|---:|---|',
    `| raw P-256 signature verification (node:crypto) | ${f.rawPerSecond.toFixed(0)} | |`,
    `| passkey sign-in verification (verifyAuthentication) | ${f.passkeyPerSecond.toFixed(0)} | ${(f.ratio * 100).toFixed(0)} % of raw, goal ≥ 80 %: ${f.ratio >= 0.8 ? 'met' : 'not met'} |`,
  ];
}
