import fp from 'fastify-plugin';
import { type Accounts, createAccounts } from '../../domain/accounts/accounts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts;
  }
}

/** Decorates the instance with the accounts service (src/domain/accounts). */
export default fp(
  async (app) => {
    app.decorate('accounts', createAccounts(app));
  },
  { name: 'accounts', dependencies: ['db'] },
);
