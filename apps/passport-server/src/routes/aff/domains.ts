import { assertHolds } from '../../access/statement';
import { operationRoute } from '../../adapters/operation-route';
import { txtResolver } from '../../domain/enterprise/dns';
import { normaliseDomain, recordName } from '../../domain/enterprise/domains';
import { actorIn } from '../../domain/organisations/actors';
import { factorClockOf } from '../../domain/organisations/second-factor';
import {
  addDomain,
  listDomains,
  lookupKey,
  removeDomain,
  verifyDomain,
} from '../../operations/organisation/domains';
import { affiliatePaths as paths } from '../../protocol';
import { schemas } from '../../schemas/enterprise';

/** An organisation's e-mail domains: the operations of src/operations/organisation/domains.ts. */

/** How long the route keeps what DNS answered for the operation it then invokes. */
const LOOKUP_TTL_MS = 60_000;

export const domainAddRoute = operationRoute(addDomain, {
  method: 'POST',
  schema: schemas.domainAdd,
  at: [['aff', paths.domainAdd]],
});

export const domainListRoute = operationRoute(listDomains, {
  method: 'GET',
  schema: schemas.domainList,
  at: [['aff', paths.domainList]],
});

export const domainVerifyRoute = operationRoute(verifyDomain, {
  method: 'POST',
  schema: schemas.domainVerify,
  at: [['aff', paths.domainVerify]],
  // DNS is asked before the transaction opens (a slow resolver must not hold a connection); the
  // operation takes the answer, once, and judges it. Only for a member who may verify, and a domain
  // the organisation added and has not verified: nobody makes the server look up names of their
  // choosing, nor learns from the time taken what another organisation added.
  async check(app, request, user) {
    const actor = await actorIn(app.db, app.organisations.access, user, request.body.subject_uid, {
      factor: factorClockOf(app, request.session?.factorVerifiedAt),
    });
    assertHolds(actor.permissions, 'sso:manage');
    const domain = normaliseDomain(request.body.domain);
    const pending = await app.db
      .selectFrom('organisation_domains')
      .select('id')
      .where('subject_id', '=', request.body.subject_uid)
      .where('domain', '=', domain)
      .where('verified_at', 'is', null)
      .executeTakeFirst();
    if (!pending) return;
    const lookup = await txtResolver(app.config.dnsResolver)(recordName(domain));
    await app.store.set(lookupKey(request.body), JSON.stringify(lookup), LOOKUP_TTL_MS);
  },
});

export const domainRemoveRoute = operationRoute(removeDomain, {
  method: 'POST',
  schema: schemas.domainRemove,
  at: [['aff', paths.domainRemove]],
});
