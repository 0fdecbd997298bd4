import type { FastifyInstance } from 'fastify';
import { type Config, exposureOf } from './config';

/**
 * What `pnpm start` prints once the server listens: where it is, where its data lives, and — when the
 * development switches are on — who can use them: this machine (a loopback origin and listen address),
 * anyone who can reach the listen address (a loopback origin served on a network, HOST=0.0.0.0), or
 * anyone who reaches the server (a public origin).
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
  const exposure = exposureOf(config);
  const who =
    exposure === 'this machine'
      ? 'this machine'
      : exposure === 'network'
        ? `anyone who can reach ${config.host}:${config.port} (HOST is not loopback)`
        : 'ANYONE who reaches this server';
  if (app.delivery.outbox) {
    lines.push(
      `  dev outbox (codes you "send" land here, readable by ${who}): ${config.publicOrigin}/dev/outbox`,
    );
  }
  if (config.testClock)
    lines.push(`  test clock (POST /dev/clock moves time for every user), usable by ${who}`);
  if (config.riskThresholds === 'relaxed')
    lines.push(`  relaxed risk thresholds (codes and guesses without a captcha) for ${who}`);
  return `${lines.join('\n')}\n`;
}
