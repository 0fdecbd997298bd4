import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { type Arguments, parseArguments, progressLine, summaryOf, USAGE, UsageError } from './import/cli';
import { importUsers } from './import/import-users';
import { formatOf, readRecords, readUsers } from './import/sources';

/**
 * `pnpm --filter @portico/passport-server import-users -- --from auth0 --file users.json [--dry-run]`
 * (docs/importing-users.md): imports another provider's export into the database the server's
 * settings name (the same environment as `pnpm start`). Progress on stderr, the report on stdout.
 * Exit 0: every record imported or already imported; 2: some records were reported and left out;
 * 64: a usage error; 78: a bad setting; 1: the import failed (what committed stays: run it again).
 */

async function main(): Promise<number> {
  let args: Arguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 64;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 78;
  }
  const content = readFileSync(args.file, 'utf8');
  const records = readUsers(
    args.source,
    readRecords(content, args.format ?? formatOf(basename(args.file), content)),
    args.firebase,
  );
  const handle = await openDatabase(config);
  const tty = process.stderr.isTTY;
  let shown = 0;
  try {
    const report = await importUsers(handle.db, {
      source: args.source,
      records,
      dryRun: args.dryRun,
      config,
      ...(args.batchSize ? { batchSize: args.batchSize } : {}),
      onProgress(progress) {
        // At most once a second, and the last one.
        if (progress.done < progress.total && progress.elapsedMs - shown < 1000) return;
        shown = progress.elapsedMs;
        process.stderr.write(tty ? `\r${progressLine(progress)}\u001b[K` : `${progressLine(progress)}\n`);
      },
    });
    if (tty) process.stderr.write('\n');
    process.stdout.write(summaryOf(report));
    if (args.report) writeFileSync(args.report, `${JSON.stringify(report, null, 2)}\n`);
    return report.problems.length ? 2 : 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`The import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
