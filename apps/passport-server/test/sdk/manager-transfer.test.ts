import { afterAll, beforeAll, describe } from 'vitest';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';
import { transferRaces } from './transfer-races';

/** The manager transfer's races on the embedded default (SQLite); on PostgreSQL: test/smoke. */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({ devOutbox: 'on' }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

describe('manager transfer races', () => transferRaces(() => server));
