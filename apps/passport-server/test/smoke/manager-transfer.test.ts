import { afterAll, beforeAll, describe } from 'vitest';
import { transferRaces } from '../sdk/transfer-races';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';

/**
 * The manager transfer's races on the scaled-out deployment's storage (the services project): on
 * PostgreSQL the steps of one subject and a cancellation of one account are serialised by row locks,
 * where SQLite has one writer at a time.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({ devOutbox: 'on' }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

describe('manager transfer races', () => transferRaces(() => server));
