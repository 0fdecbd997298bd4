import fp from 'fastify-plugin';
import { seedDefaultImages } from '../../domain/profile/images';
import { DEFAULT_QUOTAS } from '../../domain/profile/quotas';

declare module 'fastify' {
  interface FastifyInstance {
    /** Deletes profile changes older than the longest quota window (the housekeeping timer; tests). */
    sweepProfileUpdates(): Promise<number>;
  }
}

/**
 * Profiles (issue 17): the built-in default images are written at start when missing, and the rows the
 * update quotas count are deleted once no window can reach them any more.
 */
export default fp(
  async (app) => {
    await seedDefaultImages(app);
    const longest =
      Math.max(
        ...[...Object.values(DEFAULT_QUOTAS), ...Object.values(app.config.profileQuotas)].map(
          (q) => q.windowSeconds,
        ),
      ) * 1000;
    const sweep = async () => {
      const result = await app.db
        .deleteFrom('profile_updates')
        .where('at', '<=', app.runtime.now() - longest)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    };
    app.decorate('sweepProfileUpdates', sweep);
    const timer = setInterval(() => {
      sweep().catch((error: unknown) => app.log.warn({ err: error }, 'profile sweep failed'));
    }, app.runtime.limits.sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'profile', dependencies: ['db'] },
);
