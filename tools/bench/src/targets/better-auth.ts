// The nearest same-language peer: Better Auth on better-sqlite3, set up as its installation and Node
// integration docs say (a better-sqlite3 Database as `database`, e-mail and password enabled, the schema
// created with getMigrations().runMigrations(), the handler mounted with toNodeHandler on node:http).
// Its rate limiter is off, as Portico's caps are lifted; telemetry is off (it is off by default too).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import Database from 'better-sqlite3';
import { serveParent } from '../ipc.ts';

const dir = mkdtempSync(join(tmpdir(), 'better-auth-bench-'));
const sqlite = new Database(join(dir, 'auth.db'));
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: randomBytes(32).toString('hex'),
  database: sqlite,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();
server.on('request', toNodeHandler(auth));

serveParent(port, {}, async () => {
  await new Promise((resolve) => server.close(resolve));
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});
