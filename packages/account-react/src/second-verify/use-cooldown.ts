import { useCallback, useEffect, useState } from 'react';

/**
 * A seconds-left countdown that ticks once a second: `start(60)` → 60, 59, … 0. It counts from a deadline
 * (not by decrementing), so a throttled background tab still shows the right number when it wakes.
 * `until` lets a caller keep the deadline elsewhere (across a remount) and hand it back.
 */
export function useCooldown(until?: number): { seconds: number; start(seconds: number): number } {
  const [deadline, setDeadline] = useState(until ?? 0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until !== undefined) setDeadline(until);
  }, [until]);
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  useEffect(() => {
    if (deadline <= Date.now()) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  const start = useCallback((secs: number) => {
    const at = Date.now();
    const next = at + secs * 1000;
    setNow(at);
    setDeadline(next);
    return next;
  }, []);
  return { seconds, start };
}
