import fp from 'fastify-plugin';
import { seedDefaultImages } from '../../domain/profile/images';

/** Profiles (issue 17): the built-in default images are written at start when missing. */
export default fp(
  async (app) => {
    await seedDefaultImages(app);
  },
  { name: 'profile', dependencies: ['db'] },
);
