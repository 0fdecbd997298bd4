import { assertHolds } from '../../access/statement';
import { operationRoute } from '../../adapters/operation-route';
import { isLoopbackOrigin } from '../../config';
import {
  checkIssuerAddress,
  discoverIssuer,
  normaliseIssuer,
  normaliseMetadataUrl,
} from '../../domain/enterprise/connections';
import { fetchIdpMetadata, metadataKey } from '../../domain/enterprise/saml-metadata';
import { actorIn } from '../../domain/organisations/actors';
import { factorClockOf } from '../../domain/organisations/second-factor';
import {
  removeSsoConnection,
  saveSamlConnection,
  saveSsoConnection,
  ssoConnectionInfo,
} from '../../operations/organisation/connections';
import { answerMembership } from '../../operations/organisation/membership-acceptance';
import { saveSsoPolicy, ssoPolicyInfo } from '../../operations/organisation/sso-policy';
import { affiliatePaths as paths } from '../../protocol';
import { schemas } from '../../schemas/enterprise';

/** An organisation's single sign-on connection: the operations of src/operations/organisation/connections.ts. */

export const connectionSaveRoute = operationRoute(saveSsoConnection, {
  method: 'POST',
  schema: schemas.connectionSave,
  at: [['aff', paths.connectionSave]],
  // The issuer's discovery document is read before the transaction (the network must not hold a
  // connection), and only for a member who may save the connection: nobody else makes the server
  // fetch an address of their choosing, and only at an issuer whose host resolves to public addresses.
  async check(app, request, user) {
    const actor = await actorIn(app.db, app.organisations.access, user, request.body.subject_uid, {
      factor: factorClockOf(app, request.session?.factorVerifiedAt),
    });
    assertHolds(actor.permissions, 'sso:manage');
    const issuer = normaliseIssuer(request.body.issuer, app.config.publicOrigin);
    await checkIssuerAddress(issuer, app.config.publicOrigin);
    await discoverIssuer(issuer, request.body.client_id);
  },
});

/** How long the route keeps the metadata it read for the operation it then invokes. */
const METADATA_TTL_MS = 60_000;

export const samlConnectionSaveRoute = operationRoute(saveSamlConnection, {
  method: 'POST',
  schema: schemas.samlConnectionSave,
  at: [['aff', paths.samlConnectionSave]],
  // A federation's metadata passes 64 KiB; its schema bounds it (200,000 characters).
  bodyLimit: 256 * 1024,
  // Metadata given by its address is read before the transaction (the network must not hold a
  // connection), and only for a member who may save the connection: nobody else makes the server
  // fetch an address of their choosing. The operation takes what was read, once, and judges it.
  async check(app, request, user) {
    const raw = request.body.metadata_url;
    if (!raw) return;
    const actor = await actorIn(app.db, app.organisations.access, user, request.body.subject_uid, {
      factor: factorClockOf(app, request.session?.factorVerifiedAt),
    });
    assertHolds(actor.permissions, 'sso:manage');
    const url = normaliseMetadataUrl(raw, app.config.publicOrigin);
    const fetched = await fetchIdpMetadata(url, {
      privateTargets: isLoopbackOrigin(app.config.publicOrigin),
    });
    await app.store.set(metadataKey(request.body.subject_uid, raw), JSON.stringify(fetched), METADATA_TTL_MS);
  },
});

export const connectionInfoRoute = operationRoute(ssoConnectionInfo, {
  method: 'GET',
  schema: schemas.connectionInfo,
  at: [['aff', paths.connectionInfo]],
});

export const connectionRemoveRoute = operationRoute(removeSsoConnection, {
  method: 'POST',
  schema: schemas.connectionRemove,
  at: [['aff', paths.connectionRemove]],
});

export const policySaveRoute = operationRoute(saveSsoPolicy, {
  method: 'POST',
  schema: schemas.policySave,
  at: [['aff', paths.policySave]],
});

export const policyInfoRoute = operationRoute(ssoPolicyInfo, {
  method: 'GET',
  schema: schemas.policyInfo,
  at: [['aff', paths.policyInfo]],
});

/** The person's answer to a membership SCIM provisioned for the account they had (docs/scim.md). */
export const membershipAcceptRoute = operationRoute(answerMembership, {
  method: 'POST',
  schema: schemas.membershipAccept,
  at: [['aff', paths.membershipAccept]],
});
