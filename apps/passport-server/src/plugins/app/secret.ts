import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server secret: keys CSRF tokens and one-time code hashes. */
    secret: Buffer;
  }
}

/**
 * SECRET from the environment, else DATA_DIR/secret, generated on first start (mode 0600).
 * Several instances must share one secret: set SECRET for them all.
 */
export function loadSecret(secret: string | undefined, dataDir: string): Buffer {
  if (secret) return Buffer.from(secret, 'utf8');
  const file = join(dataDir, 'secret');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': of two instances starting at once, one writes and the other reads what it wrote.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}

export default fp(
  async (app) => {
    app.decorate('secret', loadSecret(app.config.secret, app.config.dataDir));
  },
  { name: 'secret' },
);
