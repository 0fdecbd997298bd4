import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import type { Kysely, Selectable } from 'kysely';
import type { Sealer } from './seal';

/** ES256 (ECDSA P-256 with SHA-256): the one JWS algorithm every JOSE library verifies. */
export const SIGNING_ALG = 'ES256';

/** Times are milliseconds since the epoch, as in every other table. */
export interface SigningKeysTable {
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  /** 1, 2, 3, …: unique, so of two instances rotating at once only one key per generation is made. */
  generation: number;
  alg: string;
  /** The public JWK as served in the JWKS (kty, crv, x, y, kid, alg, use). */
  public_jwk: string;
  /** The private JWK sealed with the server secret (see seal.ts); null once the key has retired. */
  private_jwk_sealed: string | null;
  /** From this time the key signs, until the next generation's activates_at. */
  activates_at: number;
  created_at: number;
}

export interface SigningKeysDatabase {
  signing_keys: SigningKeysTable;
}

type KeyRow = Selectable<SigningKeysTable>;

/** A JWK as the JWKS serves it: public members, kid, alg, use. */
export type PublicJwk = JWK & { kty: string; kid: string; alg: string; use: 'sig' };

export interface KeyRingOptions {
  db: Kysely<SigningKeysDatabase>;
  sealer: Sealer;
  now: () => number;
  /** A new key takes over this often. */
  rotationMs: number;
  /** The longest a token lives: a retired key stays published this long (plus leeway) after retiring. */
  tokenTtlMs: number;
  /** Clock skew between instances and verifiers, and verifier caches. Default 5 minutes. */
  leewayMs?: number;
  /** How long an instance trusts what it read from the table. Default 1 minute. */
  cacheMs?: number;
  /**
   * When the active key cannot be opened here (it was sealed with another SECRET): true, a new key
   * replaces it (an operator changed SECRET on purpose, REPLACE_SIGNING_KEYS=on); false, the call fails
   * with UnreadableSigningKey. Two servers with different secrets replacing each other's keys would
   * churn a new generation at every request.
   */
  replaceUnreadable: boolean;
  /** Told when the active key cannot be opened here and a new one replaces it. */
  onUnreadable?: (kid: string, error: unknown) => void;
}

/** The active signing key was sealed with another SECRET, and nothing says to replace it. */
export class UnreadableSigningKey extends Error {
  constructor(readonly kid: string) {
    super(
      `the active signing key (${kid}) was sealed with another SECRET: every server sharing this database needs the same SECRET. If SECRET was changed on purpose, start once with REPLACE_SIGNING_KEYS=on: a new key takes over, and tokens signed before stay verifiable until they expire.`,
    );
    this.name = 'UnreadableSigningKey';
  }
}

/** The key that signs now, ready to use. */
export interface ActiveKey {
  kid: string;
  key: CryptoKey;
}

/**
 * The signing keys, with the database as the source of truth so that every instance signs with the
 * same key and serves the same JWKS. The key of generation n+1 is made (and published) as soon as
 * generation n becomes active, one rotation period before it signs anything, so a verifier that
 * cached the JWKS already knows it. A retired key stays in the JWKS until every token it signed has
 * expired; its private half is erased a leeway after it retires, and the row is deleted after that.
 */
export class KeyRing {
  private readonly leewayMs: number;
  private readonly cacheMs: number;
  private snapshot: { rows: KeyRow[]; validUntil: number } | null = null;
  private refreshing: Promise<KeyRow[]> | null = null;
  private readonly imported = new Map<string, Promise<CryptoKey>>();

  constructor(private readonly options: KeyRingOptions) {
    this.leewayMs = options.leewayMs ?? 5 * 60_000;
    this.cacheMs = options.cacheMs ?? 60_000;
  }

  /**
   * The key to sign with now. When this instance cannot open it (SECRET changed), it fails (see
   * `replaceUnreadable`) or a new generation takes over at once; the unreadable key's public half stays
   * published for the tokens it signed.
   */
  async active(): Promise<ActiveKey> {
    for (let attempt = 0; ; attempt++) {
      const rows = await this.rows();
      const row = activeOf(rows, this.options.now());
      try {
        if (!row?.private_jwk_sealed) throw new Error('the active signing key has no private half');
        let key = this.imported.get(row.kid);
        if (!key) {
          const jwk = JSON.parse(this.options.sealer.open(row.private_jwk_sealed, row.kid)) as JWK;
          key = importJWK(jwk, row.alg) as Promise<CryptoKey>;
          key.catch(() => this.imported.delete(row.kid));
          this.imported.set(row.kid, key);
        }
        return { kid: row.kid, key: await key };
      } catch (error) {
        if (attempt > 0) throw error;
        if (row?.private_jwk_sealed && !this.options.replaceUnreadable)
          throw new UnreadableSigningKey(row.kid);
        this.options.onUnreadable?.(row?.kid ?? '(none)', error);
        await this.create((rows.at(-1)?.generation ?? 0) + 1, this.options.now());
        this.invalidate();
      }
    }
  }

  /**
   * The active key as a private JWK, for a signer that takes key material rather than a CryptoKey (the
   * OpenID provider of open authorization, src/domain/open-auth). Never served.
   */
  async activeJwk(): Promise<{ kid: string; jwk: JWK }> {
    const { kid } = await this.active();
    const row = (await this.rows()).find((r) => r.kid === kid);
    if (!row?.private_jwk_sealed) throw new Error('the active signing key has no private half');
    const jwk = JSON.parse(this.options.sealer.open(row.private_jwk_sealed, row.kid)) as JWK;
    return { kid, jwk: { ...jwk, kid, alg: row.alg, use: 'sig' } };
  }

  /** The public keys a verifier needs now: retired-but-valid, active and next. Never a private part. */
  async published(): Promise<PublicJwk[]> {
    const rows = await this.rows();
    const now = this.options.now();
    const active = activeOf(rows, now);
    return rows
      .filter((row) => {
        if (!active || row.generation >= active.generation) return true;
        const retired = retiredAt(rows, row);
        return retired !== undefined && now < retired + this.options.tokenTtlMs + this.leewayMs;
      })
      .map((row) => publicOnly(JSON.parse(row.public_jwk) as JWK));
  }

  /** Forgets what was read, so the next call reads the table (tests, and after a clock jump). */
  invalidate(): void {
    this.snapshot = null;
  }

  private async rows(): Promise<KeyRow[]> {
    const now = this.options.now();
    if (this.snapshot && now < this.snapshot.validUntil) return this.snapshot.rows;
    this.refreshing ??= this.maintain().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Reads the table and brings it up to date: an active key, its successor, no stale private halves. */
  private async maintain(): Promise<KeyRow[]> {
    const { db, now, rotationMs } = this.options;
    for (let attempt = 0; attempt < 5; attempt++) {
      const t = now();
      const rows = await db.selectFrom('signing_keys').selectAll().orderBy('generation').execute();
      const active = activeOf(rows, t);
      if (!active) {
        await this.create((rows.at(-1)?.generation ?? 0) + 1, t);
        continue;
      }
      if (!rows.some((row) => row.generation === active.generation + 1)) {
        await this.create(active.generation + 1, Math.max(active.activates_at + rotationMs, t));
        continue;
      }
      const kept = await this.prune(rows, active, t);
      const next = kept.find((row) => row.generation === active.generation + 1);
      this.snapshot = { rows: kept, validUntil: Math.min(t + this.cacheMs, next?.activates_at ?? Infinity) };
      return kept;
    }
    throw new Error('the signing keys did not settle after 5 attempts');
  }

  /** Makes a key for a generation unless another instance already did (the unique generation decides). */
  private async create(generation: number, activatesAt: number): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(privateKey);
    await this.options.db
      .insertInto('signing_keys')
      .values({
        kid,
        generation,
        alg: SIGNING_ALG,
        public_jwk: JSON.stringify({ ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }),
        private_jwk_sealed: this.options.sealer.seal(JSON.stringify(privateJwk), kid),
        activates_at: activatesAt,
        created_at: this.options.now(),
      })
      .onConflict((oc) => oc.column('generation').doNothing())
      .execute();
  }

  /** Erases private halves a leeway after retirement and deletes keys whose tokens have all expired. */
  private async prune(rows: KeyRow[], active: KeyRow, t: number): Promise<KeyRow[]> {
    const { db, tokenTtlMs } = this.options;
    const wipe: string[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (row.generation >= active.generation) continue;
      const retired = retiredAt(rows, row) ?? active.activates_at;
      if (t >= retired + tokenTtlMs + this.leewayMs) drop.push(row.kid);
      else if (row.private_jwk_sealed !== null && t >= retired + this.leewayMs) wipe.push(row.kid);
    }
    if (drop.length) await db.deleteFrom('signing_keys').where('kid', 'in', drop).execute();
    if (wipe.length)
      await db
        .updateTable('signing_keys')
        .set({ private_jwk_sealed: null })
        .where('kid', 'in', wipe)
        .execute();
    for (const kid of [...drop, ...wipe]) this.imported.delete(kid);
    return rows
      .filter((row) => !drop.includes(row.kid))
      .map((row) => (wipe.includes(row.kid) ? { ...row, private_jwk_sealed: null } : row));
  }
}

/** The newest generation whose activation time has come. */
function activeOf(rows: readonly KeyRow[], t: number): KeyRow | undefined {
  let active: KeyRow | undefined;
  for (const row of rows) {
    if (row.activates_at <= t && (!active || row.generation > active.generation)) active = row;
  }
  return active;
}

/** When a key stopped signing: the activation of the next generation after it. */
function retiredAt(rows: readonly KeyRow[], row: KeyRow): number | undefined {
  let successor: KeyRow | undefined;
  for (const other of rows) {
    if (other.generation > row.generation && (!successor || other.generation < successor.generation))
      successor = other;
  }
  return successor?.activates_at;
}

/** Public members only, whatever was stored: a JWKS must never carry `d` (or p, q, dp, dq, qi, k). */
function publicOnly(jwk: JWK): PublicJwk {
  const { kty, crv, x, y, n, e, kid, alg, use } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, n, e, kid, alg, use }).filter(([, v]) => v !== undefined),
  ) as unknown as PublicJwk;
}
