import { parseArgs } from 'node:util';
import type { ImportReport, Progress } from './import-users';
import { type FirebaseHashParameters, SOURCES, type Source } from './sources';

/** The import command's arguments and what it prints (src/import-users.ts runs it). */

export const USAGE = `Usage: import-users --from <${SOURCES.join('|')}> --file <export> [--dry-run] [--report <file.json>]
  [--format json|jsonl|csv] [--batch-size 500]
  Firebase: --firebase-signer-key <base64> --firebase-salt-separator <base64>
            --firebase-rounds <n> --firebase-mem-cost <n>  (the project's password hash parameters)
The database is the one the server's settings name (DATABASE_URL, DATA_DIR, …).`;

export class UsageError extends Error {}

export interface Arguments {
  source: Source;
  file: string;
  dryRun: boolean;
  report: string | undefined;
  format: 'json' | 'jsonl' | 'csv' | undefined;
  batchSize: number | undefined;
  firebase: FirebaseHashParameters | undefined;
}

const positive = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer`);
  return Number(value);
};

export function parseArguments(argv: string[]): Arguments {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      from: { type: 'string' },
      file: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      report: { type: 'string' },
      format: { type: 'string' },
      'batch-size': { type: 'string' },
      'firebase-signer-key': { type: 'string' },
      'firebase-salt-separator': { type: 'string' },
      'firebase-rounds': { type: 'string' },
      'firebase-mem-cost': { type: 'string' },
    },
    strict: true,
  });
  const source = values.from as Source | undefined;
  if (!source || !SOURCES.includes(source))
    throw new UsageError(`--from must be one of ${SOURCES.join(', ')}`);
  if (!values.file) throw new UsageError('--file is required');
  const format = values.format as Arguments['format'];
  if (format !== undefined && !['json', 'jsonl', 'csv'].includes(format))
    throw new UsageError('--format must be json, jsonl or csv');
  let firebase: FirebaseHashParameters | undefined;
  const signerKey = values['firebase-signer-key'];
  const saltSeparator = values['firebase-salt-separator'];
  const rounds = positive('firebase-rounds', values['firebase-rounds']);
  const memCost = positive('firebase-mem-cost', values['firebase-mem-cost']);
  if (
    signerKey !== undefined ||
    saltSeparator !== undefined ||
    rounds !== undefined ||
    memCost !== undefined
  ) {
    if (
      signerKey === undefined ||
      saltSeparator === undefined ||
      rounds === undefined ||
      memCost === undefined
    )
      throw new UsageError('the four --firebase-… parameters go together');
    firebase = { signerKey, saltSeparator, rounds, memCost };
  }
  if (source === 'firebase' && !firebase)
    throw new UsageError("a Firebase import needs the project's password hash parameters (--firebase-…)");
  return {
    source,
    file: values.file,
    dryRun: values['dry-run'] ?? false,
    report: values.report,
    format,
    batchSize: positive('batch-size', values['batch-size']),
    firebase,
  };
}

const count = (n: number) => n.toLocaleString('en');

/** One line of progress: records judged, rate and what is left. */
export function progressLine({ dryRun, done, total, imported, elapsedMs }: Progress): string {
  const seconds = Math.max(elapsedMs, 1) / 1000;
  const rate = done / seconds;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
  return `${count(done)}/${count(total)} records, ${count(imported)} ${dryRun ? 'to import' : 'imported'}, ${count(Math.round(rate))} records/s, ETA ${eta} s`;
}

export function summaryOf(report: ImportReport): string {
  const lines = [
    `${report.dryRun ? 'Dry run (nothing written): ' : ''}${report.source}: ${count(report.total)} records, ` +
      `${count(report.imported)} ${report.dryRun ? 'would be imported' : 'imported'} ` +
      `(${count(report.withPassword)} with a password), ${count(report.alreadyImported)} already imported, ` +
      `${count(report.problems.length)} left out, in ${(report.elapsedMs / 1000).toFixed(1)} s ` +
      `(${count(Math.round(report.total / Math.max(report.elapsedMs / 1000, 0.001)))} records/s)`,
    ...report.problems.map(
      (p) => `line ${p.line}${p.id ? ` (${p.id})` : ''}: ${p.reason}${p.detail ? ` (${p.detail})` : ''}`,
    ),
    ...report.notes.map((n) => `line ${n.line} (${n.id}): ${n.reason}`),
  ];
  return `${lines.join('\n')}\n`;
}
