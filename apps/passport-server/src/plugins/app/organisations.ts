import fp from 'fastify-plugin';
import { addOrganisationCancelRules } from '../../domain/organisations/cancellation';
import { createOrganisations, type Organisations } from '../../domain/organisations/organisations';

declare module 'fastify' {
  interface FastifyInstance {
    organisations: Organisations;
  }
}

/** Decorates the instance with the organisation domain (src/domain/organisations), and adds its rules to cancellation. */
export default fp(
  async (app) => {
    app.decorate('organisations', createOrganisations(app));
    addOrganisationCancelRules(app.cancellation);
  },
  { name: 'organisations', dependencies: ['db', 'secret', 'cancellation'] },
);
