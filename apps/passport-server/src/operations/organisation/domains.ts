import type { TxtLookup } from '../../domain/enterprise/dns';
import {
  type DomainRow,
  deleteDomain,
  domainIn,
  domainsOf,
  insertDomain,
  isUniqueViolation,
  markVerified,
  newDomainToken,
  normaliseDomain,
  recordName,
  recordValue,
  verifiedOwner,
} from '../../domain/enterprise/domains';
import { PassportError } from '../../errors';
import { DomainData, DomainList, DomainRemoved, schemas } from '../../schemas/enterprise';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * An organisation's e-mail domains (docs/enterprise-sso.md). Adding one gives the TXT record to
 * publish; verifying reads what the route looked up in DNS before the transaction (`lookupKey`), and
 * marks the domain verified when the record holds the organisation's value and no other organisation
 * verified it first.
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;

export const domainView = (row: DomainRow) => ({
  domain: row.domain,
  verified: row.verified_at !== null,
  verified_at: row.verified_at === null ? null : Number(row.verified_at),
  record_name: recordName(row.domain),
  record_value: recordValue(row),
  created_at: Number(row.created_at),
});

/**
 * Where the route keeps what DNS answered for the operation to take, once: by organisation and
 * domain as the request named them (the operation normalises the domain again).
 */
export const lookupKey = (input: { subject_uid: string; domain: string }) =>
  `sso:domain-txt:${input.subject_uid}:${input.domain.trim().toLowerCase()}`;

export const addDomain = defineOperation({
  name: 'organisation.domain.add',
  input: schemas.domainAdd.body,
  output: DomainData,
  caller: caller.identity('sso:manage'),
  subject,
  emits: ['organisation.domain.added'],
  async run(ctx, input) {
    const domain = normaliseDomain(input.domain);
    const row: DomainRow = {
      id: ctx.newId(),
      subject_id: ctx.caller.subject.id,
      domain,
      token: newDomainToken(),
      verified_domain: null,
      verified_at: null,
      created_at: ctx.now(),
    };
    await insertDomain(ctx.tx, row);
    emitInSubject(ctx, 'organisation.domain.added', { domain });
    return domainView(row);
  },
});

export const listDomains = defineOperation({
  name: 'organisation.domain.list',
  input: schemas.domainList.querystring,
  output: DomainList,
  caller: caller.identity('sso:manage'),
  subject,
  emits: [],
  run: async (ctx) => ({ items: (await domainsOf(ctx.tx, ctx.caller.subject.id)).map(domainView) }),
});

export const verifyDomain = defineOperation({
  name: 'organisation.domain.verify',
  input: schemas.domainVerify.body,
  output: DomainData,
  caller: caller.identity('sso:manage'),
  subject,
  takes: (input) => [lookupKey(input)],
  emits: ['organisation.domain.verified'],
  async run(ctx, input) {
    const row = await domainIn(ctx.tx, ctx.caller.subject.id, normaliseDomain(input.domain));
    if (row.verified_at !== null) return domainView(row);
    const taken = ctx.oneTime.take(lookupKey(input));
    const lookup: TxtLookup = taken ? (JSON.parse(taken) as TxtLookup) : { failed: 'unavailable' };
    if ('failed' in lookup)
      throw new PassportError('domainNotVerified', {
        reason: 'dns_unavailable',
        record_name: recordName(row.domain),
      });
    if (!lookup.found.includes(recordValue(row)))
      throw new PassportError('domainNotVerified', {
        reason: 'record_missing',
        record_name: recordName(row.domain),
      });
    if (await verifiedOwner(ctx.tx, row.domain)) throw new PassportError('domainTaken');
    const verified = await markVerified(ctx.tx, row, ctx.now()).catch((error: unknown) => {
      // Another organisation verified it in the moment between: the unique column refused this one.
      if (isUniqueViolation(error)) throw new PassportError('domainTaken', {}, { cause: error });
      throw error;
    });
    emitInSubject(ctx, 'organisation.domain.verified', { domain: row.domain });
    return domainView(verified);
  },
});

export const removeDomain = defineOperation({
  name: 'organisation.domain.remove',
  input: schemas.domainRemove.body,
  output: DomainRemoved,
  caller: caller.identity('sso:manage'),
  subject,
  emits: ['organisation.domain.removed'],
  async run(ctx, input) {
    const row = await domainIn(ctx.tx, ctx.caller.subject.id, normaliseDomain(input.domain));
    await deleteDomain(ctx.tx, row);
    emitInSubject(ctx, 'organisation.domain.removed', {
      domain: row.domain,
      verified: row.verified_at !== null,
    });
    return { domain: row.domain };
  },
});
