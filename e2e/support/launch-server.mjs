// The passport server through its embedding API, for the settings no environment variable reaches:
// which challenge kinds the risk rules pick from (E2E_CHALLENGE_KINDS, comma-separated) and how long a
// QR code lives (E2E_QR_TTL_MS, so a test waits seconds, not 120 s, for an expiry). Everything else is
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
