/**
 * Rate-limit counters and one-time state. Every key has a time to live; nothing here is permanent.
 * The database implements it by default, Redis when several instances share the load.
 */
export interface Store {
  /** Adds one to a fixed-window counter and returns the new count; the window starts at the first hit. */
  incr(key: string, ttlMs: number): Promise<number>;
  /**
   * Takes one back from a live counter (never below zero; nothing when absent or expired), atomically:
   * a charge made before an outcome was known and refunded when it turned out not to count.
   */
  decrement(key: string): Promise<void>;
  /** The live value of a key, or null. */
  get(key: string): Promise<string | null>;
  /** Sets a value for ttlMs, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets a value only when no live value exists; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Atomically reads and deletes a live value: of many concurrent takers, one gets it. */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  /** The live count of a counter key, 0 when absent. */
  count(key: string): Promise<number>;
  /** Drops expired entries (a no-op where the backend expires keys itself). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}
