// Raw argon2id with the passport server's parameters, outside any HTTP server: the ceiling for
// password sign-in. Runs in its own process, with the same libuv thread pool the server gets.
import { hash } from '@node-rs/argon2';
import { serveParent } from '../ipc.ts';
import { ARGON2_OPTIONS } from '../shared.ts';

/** Keeps `concurrency` hashes in flight for `ms`; returns each hash's time (ms) and the time taken (s). */
async function measure({ concurrency, ms }: { concurrency: number; ms: number }) {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + ms;
  const lane = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await hash('correct horse battery staple', ARGON2_OPTIONS);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { latencies, seconds: (performance.now() - start) / 1000, failures: 0 };
}

// Warm the thread pool and the allocator once.
await hash('warm-up', ARGON2_OPTIONS);
serveParent(0, {
  measure,
  // CPU time of the whole process so far (the hashing threads included), in µs.
  cpu: () => {
    const all = process.cpuUsage();
    return { process: all.user + all.system };
  },
});
