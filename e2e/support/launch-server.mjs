// The passport server through its embedding API, for the settings no environment variable reaches:
// which challenge kinds the risk rules pick from (E2E_CHALLENGE_KINDS, comma-separated) and how long a
// QR code lives (E2E_QR_TTL_MS, so a test waits seconds, not 120 s, for an expiry); the kinds can be
// changed later through stdin (below). Everything else is
// read from the environment exactly as dist/main.js reads it, and the ready line is the same.
import { buildServer } from '@portico/passport-server';
import { loadConfig } from '@portico/passport-server/config';

const config = loadConfig(process.env);
const kinds = (process.env.E2E_CHALLENGE_KINDS ?? '').split(',').filter(Boolean);
const qrTtlMs = Number(process.env.E2E_QR_TTL_MS ?? '');
const limits = {
  ...(kinds.length ? { challengeKinds: kinds } : {}),
  ...(qrTtlMs > 0 ? { qrTtlMs } : {}),
};
const app = await buildServer(config, { limits });
// The kinds can change while the server runs, so one server serves every kind's tests: a line
// `challenge-kinds <serial> <kind,kind…>` on stdin replaces them in the list the server picks from
// (buildServer keeps the list it was handed), and the launcher answers `challenge-kinds <serial> set`.
// Only through this process's stdin, which only the test that started it holds.
if (kinds.length) {
  const { createInterface } = await import('node:readline');
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, serial, list = ''] = line.trim().split(' ');
    if (command !== 'challenge-kinds') return;
    const next = list.split(',').filter(Boolean);
    if (next.length) kinds.splice(0, kinds.length, ...next);
    process.stdout.write(`challenge-kinds ${serial} set: ${kinds.join(', ')}\n`);
  });
}
await app.listen({ port: config.port, host: config.host });
process.stdout.write(
  `Portico passport server on ${config.publicOrigin} (challenge kinds: ${kinds.join(', ')})\n`,
);

const shutdown = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
