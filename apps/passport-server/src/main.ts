import { buildServer } from './app';
import { ConfigError, isLoopbackOrigin, loadConfig } from './config';

/** `pnpm start`: reads the environment, starts the server, prints where it is. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const app = await buildServer(config);
  await app.listen({ port: config.port, host: config.host });

  const lines = [
    `Portico passport server on ${config.publicOrigin} (listening on ${config.host}:${config.port})`,
    `  storage: ${app.database.dialect} ${app.database.location}${
      config.redisUrl ? ', counters in Redis' : app.database.store ? ', counters in store.db beside it' : ''
    }`,
    `  API docs: ${config.publicOrigin}/docs`,
  ];
  if (app.delivery.outbox) {
    const who = isLoopbackOrigin(config.publicOrigin) ? 'this machine' : 'ANYONE who reaches this server';
    lines.push(
      `  dev outbox (codes you "send" land here, readable by ${who}): ${config.publicOrigin}/dev/outbox`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The server could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
