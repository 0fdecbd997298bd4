import type { StorageLike } from './environment';
import { draw, SAMPLING_KINDS, type SamplingKind } from './sampling';

/** The key the session lives under in `sessionStorage`. */
export const SESSION_KEY = 'portico.monitor';
/** Fingerprints remembered per session for de-duplication; older ones are forgotten first. */
const MAX_FINGERPRINTS = 100;

interface SessionRecord {
  id: string;
  sampled: Partial<Record<SamplingKind, boolean>>;
  /** Error fingerprints already sent in this session. */
  seen: string[];
}

function parse(text: string | null): SessionRecord | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SessionRecord>;
    if (typeof value.id !== 'string' || value.id === '') return undefined;
    return {
      id: value.id,
      sampled: typeof value.sampled === 'object' && value.sampled !== null ? value.sampled : {},
      seen: Array.isArray(value.seen) ? value.seen.filter((f) => typeof f === 'string') : [],
    };
  } catch {
    return undefined;
  }
}

function randomId(random: () => number): string {
  let id = '';
  for (let i = 0; i < 4; i++)
    id += Math.floor(random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return id;
}

/**
 * The session: a random id and one sampling decision per kind, made when the session starts and kept
 * in storage, so a page load, a reload and the next page of the same tab agree and a sampled session
 * is whole. Without storage the session is the page load.
 */
export class MonitorSession {
  readonly id: string;
  /** True when this page load started the session (a reload or the next page continues it). */
  readonly isNew: boolean;
  private readonly record: SessionRecord;

  constructor(
    private readonly storage: StorageLike | undefined,
    rates: Readonly<Record<SamplingKind, number>>,
    random: () => number,
  ) {
    const stored = parse(read(storage));
    this.isNew = stored === undefined;
    this.record = stored ?? { id: randomId(random), sampled: {}, seen: [] };
    this.id = this.record.id;
    let changed = this.isNew;
    for (const kind of SAMPLING_KINDS) {
      if (typeof this.record.sampled[kind] === 'boolean') continue;
      this.record.sampled[kind] = draw(rates[kind], random);
      changed = true;
    }
    if (changed) this.save();
  }

  /** Whether this session sends events of `kind` (the session itself must be sampled too). */
  sampled(kind: SamplingKind): boolean {
    return this.record.sampled.session === true && this.record.sampled[kind] === true;
  }

  /** Remembers an error fingerprint; false when this session has sent it already. */
  firstSeen(fingerprint: string): boolean {
    if (this.record.seen.includes(fingerprint)) return false;
    this.record.seen.push(fingerprint);
    if (this.record.seen.length > MAX_FINGERPRINTS) this.record.seen.shift();
    this.save();
    return true;
  }

  private save(): void {
    try {
      this.storage?.setItem(SESSION_KEY, JSON.stringify(this.record));
    } catch {
      // Storage full or refused: the session lasts as long as this page.
    }
  }
}

function read(storage: StorageLike | undefined): string | null {
  try {
    return storage?.getItem(SESSION_KEY) ?? null;
  } catch {
    return null;
  }
}
