import fp from 'fastify-plugin';
import { createDevices, type Devices } from '../../domain/devices/devices';

declare module 'fastify' {
  interface FastifyInstance {
    devices: Devices;
  }
}

/** Decorates the instance with the devices service (src/domain/devices). */
export default fp(
  async (app) => {
    app.decorate('devices', createDevices(app));
  },
  { name: 'devices', dependencies: ['db'] },
);
