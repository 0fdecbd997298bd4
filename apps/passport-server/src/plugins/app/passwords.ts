import fp from 'fastify-plugin';
import { createPasswords, type Passwords } from '../../domain/passwords/passwords';

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords;
  }
}

/** Decorates the instance with the passwords service (src/domain/passwords). */
export default fp(
  async (app) => {
    const { passwordHashMemoryKiB, passwordHashPasses } = app.runtime.limits;
    app.decorate(
      'passwords',
      await createPasswords({ memoryCost: passwordHashMemoryKiB, timeCost: passwordHashPasses }),
    );
  },
  { name: 'passwords' },
);
