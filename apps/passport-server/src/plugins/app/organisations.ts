import fp from 'fastify-plugin';
import { createOrganisations, type Organisations } from '../../domain/organisations/organisations';

declare module 'fastify' {
  interface FastifyInstance {
    organisations: Organisations;
  }
}

/** Decorates the instance with the organisation domain (src/domain/organisations). */
export default fp(
  async (app) => {
    app.decorate('organisations', createOrganisations(app));
  },
  { name: 'organisations', dependencies: ['db', 'secret'] },
);
