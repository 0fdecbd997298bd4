import type { FastifyInstance } from 'fastify';
import { type Config, isLoopbackOrigin } from './config';

/**
 * What `pnpm start` prints once the server listens: where it is, where its data lives, and — when the
 * dev outbox is on — how public every code sent is (issue 9 item 4: on a public origin it must say so).
 */
export function startBanner(config: Config, app: FastifyInstance): string {
  const lines = [
    `Portico passport server on ${config.publicOrigin} (listening on ${config.host}:${config.port})`,
    `  storage: ${app.database.dialect} ${app.database.location}${
      config.redisUrl
        ? ', counters in Redis'
        : app.database.dialect === 'sqlite'
          ? ', counters in store.db beside it'
          : ''
    }`,
    `  API docs: ${config.publicOrigin}/docs`,
  ];
  if (app.delivery.outbox) {
    const who = isLoopbackOrigin(config.publicOrigin) ? 'this machine' : 'ANYONE who reaches this server';
    lines.push(
      `  dev outbox (codes you "send" land here, readable by ${who}): ${config.publicOrigin}/dev/outbox`,
    );
  }
  return `${lines.join('\n')}\n`;
}
