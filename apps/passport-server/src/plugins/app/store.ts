import fp from 'fastify-plugin';
import { DatabaseStore } from '../../store/database-store';
import { RedisStore } from '../../store/redis-store';
import type { Store } from '../../store/store';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
}

/** The Store: Redis when REDIS_URL is set, else the database (on SQLite, a file of its own). */
export default fp(
  async (app) => {
    let store: Store;
    if (app.config.redisUrl) {
      const redis = new RedisStore(app.config.redisUrl, app.config.redisPrefix);
      try {
        await redis.connect();
      } catch (error) {
        // The start fails; a client left behind would keep reconnecting in the embedding process.
        await redis.close();
        throw error;
      }
      store = redis;
    } else {
      // SQLite: the store's own file (src/db/database.ts); PostgreSQL: the main database.
      store = new DatabaseStore(app.database.store ?? app.db, app.runtime.now);
    }
    app.decorate('store', store);
    app.addHook('onClose', async () => {
      await store.close();
    });
  },
  { name: 'store', dependencies: ['db'] },
);
