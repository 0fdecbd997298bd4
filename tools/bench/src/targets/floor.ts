// The floor: a plain Fastify 5 instance with one route, logging off. Nothing a real server does costs
// less than this, so every other figure is read against it.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { serveParent } from '../ipc.ts';
import { profilerHandlers } from '../profile.ts';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
serveParent((app.server.address() as AddressInfo).port, profilerHandlers());
