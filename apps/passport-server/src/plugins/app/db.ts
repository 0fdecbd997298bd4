import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type DatabaseHandle, openDatabase } from '../../db/database';
import type { Database } from '../../db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    database: Omit<DatabaseHandle, 'db' | 'close'>;
  }
}

/** Opens SQLite or PostgreSQL, runs the migrations, closes the pool with the server. */
export default fp(
  async (app) => {
    const handle = await openDatabase(app.config);
    app.decorate('db', handle.db);
    app.decorate('database', {
      dialect: handle.dialect,
      location: handle.location,
      ...(handle.sqlite ? { sqlite: handle.sqlite } : {}),
      ...(handle.store ? { store: handle.store } : {}),
      ...(handle.monitor ? { monitor: handle.monitor } : {}),
    });
    app.addHook('onClose', async () => {
      await handle.close();
    });
  },
  { name: 'db' },
);
