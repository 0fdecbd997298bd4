import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganisationDomainsTable } from '../../db/schema';
import { PassportError } from '../../errors';

/**
 * An organisation's e-mail domains (docs/enterprise-sso.md): the SQL, the name rule and the TXT record
 * that proves a domain. Every function takes the operation's transaction.
 */

export type DomainRow = Selectable<OrganisationDomainsTable>;

/** How many domains one organisation may add, verified or not. */
export const DOMAINS_PER_ORGANISATION = 50;

/** The label the TXT record is published under: `_portico-verification.example.com`. */
export const RECORD_LABEL = '_portico-verification';
/** What the record's text starts with, before the organisation's token. */
export const RECORD_PREFIX = 'portico-verification=';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The domain as stored: trimmed, lower-case, an IDN in its ASCII (xn--) form, no trailing dot; at
 * least two labels, letters in the last one (not an address). Else DOMAIN_INVALID.
 */
export function normaliseDomain(raw: string): string {
  const trimmed = raw.trim().replace(/\.$/, '');
  const ascii = trimmed.includes('@') || trimmed.includes('/') ? '' : domainToASCII(trimmed.toLowerCase());
  const labels = ascii.split('.');
  const valid =
    ascii.length > 0 &&
    ascii.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    /[a-z]/.test(labels[labels.length - 1]!);
  if (!valid) throw new PassportError('domainInvalid');
  return ascii;
}

/** The domain of an e-mail address, normalised, or null when it has none that could be one. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  try {
    return normaliseDomain(email.slice(at + 1));
  } catch {
    return null;
  }
}

export const recordName = (domain: string) => `${RECORD_LABEL}.${domain}`;
export const recordValue = (row: Pick<DomainRow, 'token'>) => `${RECORD_PREFIX}${row.token}`;
/** A fresh token: 128 random bits, base64url. */
export const newDomainToken = () => randomBytes(16).toString('base64url');

export const domainsOf = (tx: Kysely<Database>, subjectId: string) =>
  tx
    .selectFrom('organisation_domains')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('domain')
    .execute();

/** The organisation's row for `domain`, or DOMAIN_NOT_FOUND. */
export async function domainIn(tx: Kysely<Database>, subjectId: string, domain: string): Promise<DomainRow> {
  const row = await tx
    .selectFrom('organisation_domains')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (!row) throw new PassportError('domainNotFound');
  return row;
}

/** The organisation that verified `domain`, when one has. */
export const verifiedOwner = (tx: Kysely<Database>, domain: string) =>
  tx.selectFrom('organisation_domains').selectAll().where('verified_domain', '=', domain).executeTakeFirst();

export async function insertDomain(tx: Kysely<Database>, row: DomainRow): Promise<void> {
  const count = await tx
    .selectFrom('organisation_domains')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('subject_id', '=', row.subject_id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= DOMAINS_PER_ORGANISATION) throw new PassportError('domainLimit');
  const existing = await tx
    .selectFrom('organisation_domains')
    .select('id')
    .where('subject_id', '=', row.subject_id)
    .where('domain', '=', row.domain)
    .executeTakeFirst();
  if (existing) throw new PassportError('domainExists');
  await tx.insertInto('organisation_domains').values(row).execute();
}

/** A unique column refused the write (PostgreSQL 23505, SQLite's constraint). */
export const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

export async function markVerified(tx: Kysely<Database>, row: DomainRow, at: number): Promise<DomainRow> {
  await tx
    .updateTable('organisation_domains')
    .set({ verified_domain: row.domain, verified_at: at })
    .where('id', '=', row.id)
    .execute();
  return { ...row, verified_domain: row.domain, verified_at: at };
}

export const deleteDomain = (tx: Kysely<Database>, row: DomainRow) =>
  tx.deleteFrom('organisation_domains').where('id', '=', row.id).execute();
