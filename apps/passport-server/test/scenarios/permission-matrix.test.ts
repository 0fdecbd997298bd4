import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAccountError } from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { expect, it } from 'vitest';
import { accessStatement } from '../../src/access/statement';
import type { Operation } from '../../src/operations/define';
import { ErrorCode, OrganisationErrorCode, affiliatePaths as paths } from '../../src/protocol';
import { AFF_ROUTES } from '../../src/routes/aff';
import { manager, member, role } from '../sdk/organisation-helpers';
import { freshMobile } from '../support/server';
import { scenarioServer } from './harness';

/**
 * The permission matrix: for each permission of the access statement, a member whose one role grants
 * just that permission tries every organisation operation declared for a member identity
 * (`caller.identity(permission)`), through the real SDK's transport at the operation's own route. Each
 * is allowed iff the member holds the permission it declares (or it declares none), else
 * PERMISSION_DENIED: never another failure, a 500 or a hang. The operations and their routes come from
 * the declarations and the route table, so a new operation is in the matrix the day it is declared, and
 * fails here until it has an input below.
 */

// One manager invites a member per permission: the budgets of its invitations are not what is probed.
const server = scenarioServer(
  {},
  { limits: { sendCooldownMs: 5, invitationsPerSenderPerHour: 100, invitationsPerIpPerHour: 100 } },
);

/** Every operation declared in src/operations/organisation, by name. */
const OPERATIONS_DIR = fileURLToPath(new URL('../../src/operations/organisation/', import.meta.url));
const operations = new Map<string, Operation>();
for (const file of readdirSync(OPERATIONS_DIR).filter((name) => name.endsWith('.ts'))) {
  const module: Record<string, unknown> = await import(`${OPERATIONS_DIR}${file}`);
  for (const value of Object.values(module)) {
    const op = value as Partial<Operation>;
    if (typeof op?.name === 'string' && op.input !== undefined && typeof op.caller?.kind === 'string')
      operations.set(op.name, op as Operation);
  }
}
/**
 * Operations no route mounts: their adapters call them. Adding a member runs through its flow
 * (`user_role/create_user`, probed by the invitations' own tests), and a first message that fails
 * withdraws its invitation.
 */
const UNMOUNTED = new Set(['organisation.member.add', 'organisation.invitation.withdraw']);
const memberOperations = [...operations.values()].filter(
  (op) => op.caller.kind === 'identity' && !UNMOUNTED.has(op.name),
);

/** The route an operation answers at: the aff route whose input is the operation's input schema. */
function routeOf(op: Operation) {
  const route = AFF_ROUTES.find(
    (r) => (r.method === 'GET' ? r.schema.querystring : r.schema.body) === op.input,
  );
  const at = route?.at[0];
  return route && at ? { method: route.method, path: at[1] } : undefined;
}

/** What the probes act on: a subject, the prober's own identity, and targets no other probe touches. */
interface Targets {
  sid: string;
  /** The prober's own identity. */
  self: string;
  /** A role granting nothing: within every member's reach. */
  role: string;
  /** Members holding nothing: one to freeze, one to remove, one to give the role to and take it from. */
  toFreeze: string;
  toRemove: string;
  grantee: string;
  /** A role key nobody has used. */
  freshKey(): string;
  /** Open link invitations the manager made: one to cancel, one to resend, one to update. */
  invitations: { cancel: string; resend: string; update: string };
  /** A fresh mobile number, for an invitation that sends a message. */
  freshMobile(): string;
}

interface Probe {
  input(t: Targets): Record<string, unknown>;
  /** Declared for any member but refused inside to all but the manager (PERMISSION_DENIED). */
  managerOnly?: true;
  /**
   * What a member allowed to call it is answered here, when the probe cannot succeed in this setup
   * (a transfer that is not open, a channel the server is not configured for): a refusal for the
   * thing itself, not for the member.
   */
  allowedAs?: string;
}

const PAGE = { page: 1, page_size: 10 };
/** The role the probes act on: it grants nothing, so it is within every member's reach. */
const TARGET_ROLE = 'target';

/** A minimal valid input per route (the route outlives its flow becoming an operation). */
const PROBES: Record<string, Probe> = {
  [paths.subjectInfo]: { input: (t) => ({ sec_subject_uid: t.sid }) },
  [paths.subjectUpdate]: { input: (t) => ({ sec_subject_uid: t.sid, subject_name: 'Matrix Ltd' }) },
  // The manager alone may freeze or thaw a subject (to thaw it, it must reach a frozen one).
  [paths.subjectFreeze]: { input: (t) => ({ sec_subject_uid: t.sid, is_frozen: 0 }), managerOnly: true },
  // Off (as it is): turning it on would ask the prober's own session for a second factor.
  [paths.subjectSecondFactor]: { input: (t) => ({ sec_subject_uid: t.sid, require_second_factor: 0 }) },
  [paths.deputyList]: { input: (t) => ({ sec_subject_uid: t.sid, ...PAGE }) },
  [paths.deputyUpdate]: {
    input: (t) => ({ sec_subject_uid: t.sid, user_identity_id: t.self, deputy_name: 'Prober' }),
  },
  [paths.deputyFreeze]: {
    input: (t) => ({ sec_subject_uid: t.sid, user_identity_id: t.toFreeze, is_frozen: 1 }),
  },
  [paths.deputyDelete]: { input: (t) => ({ sec_subject_uid: t.sid, user_identity_id: t.toRemove }) },
  [paths.resourceList]: { input: (t) => ({ subject_uid: t.sid, ...PAGE }) },
  [paths.roleCreate]: {
    input: (t) => ({ subject_uid: t.sid, role_key: t.freshKey(), role_name: 'Probe', permissions: [] }),
  },
  [paths.roleUpdate]: { input: (t) => ({ subject_uid: t.sid, role_key: t.role, role_name: 'Target' }) },
  // Lifting a ban that is not there: allowed, and leaves the role usable for the other probes.
  [paths.roleBan]: { input: (t) => ({ subject_uid: t.sid, role_key: t.role, is_banned: 0 }) },
  [paths.roleList]: { input: (t) => ({ subject_uid: t.sid, ...PAGE }) },
  [paths.roleInfo]: { input: (t) => ({ subject_uid: t.sid, role_key: t.role }) },
  [paths.userRoleAdd]: {
    input: (t) => ({ subject_uid: t.sid, role_key: t.role, sec_user_identity_ids: [t.grantee] }),
  },
  [paths.userRoleDelete]: {
    input: (t) => ({ subject_uid: t.sid, role_key: t.role, sec_user_identity_ids: [t.grantee] }),
  },
  [paths.userRoleList]: { input: (t) => ({ subject_uid: t.sid, role_key: t.role, ...PAGE }) },
  [paths.userRoleAll]: { input: (t) => ({ subject_uid: t.sid, ...PAGE }) },
  [paths.userPermissions]: { input: (t) => ({ subject_uid: t.sid }) },
  [paths.permissionExplain]: { input: (t) => ({ subject_uid: t.sid, permission: 'member:read' }) },
  [paths.inviteByMobile]: {
    input: (t) => ({ subject_uid: t.sid, deputy_name: 'Probe', contact: t.freshMobile() }),
  },
  [paths.inviteByEmail]: {
    input: (t) => ({ subject_uid: t.sid, deputy_name: 'Probe', contact: `${t.freshKey()}@example.com` }),
  },
  [paths.inviteByChat]: { input: (t) => ({ subject_uid: t.sid, deputy_name: 'Probe', contact: 'u-probe' }) },
  [paths.inviteByLink]: { input: (t) => ({ subject_uid: t.sid, deputy_name: 'Probe' }) },
  [paths.inviteList]: { input: (t) => ({ subject_uid: t.sid, page: 1, page_size: 10 }) },
  [paths.inviteCancel]: { input: (t) => ({ subject_uid: t.sid, invite_id: t.invitations.cancel }) },
  [paths.inviteResend]: { input: (t) => ({ subject_uid: t.sid, invite_id: t.invitations.resend }) },
  [paths.inviteUpdate]: {
    input: (t) => ({ subject_uid: t.sid, invite_id: t.invitations.update, deputy_name: 'Renamed' }),
  },
  // The manager's own steps: nobody else may start, check or commit a hand-over.
  [paths.managerCheckNew]: {
    input: (t) => ({ subject_uid: t.sid, user_identity_id: t.grantee }),
    managerOnly: true,
  },
  [paths.managerStart]: {
    input: (t) => ({ subject_uid: t.sid, transfer_ticket: 'x'.repeat(43), user_identity_id: t.grantee }),
    managerOnly: true,
  },
  // The new manager's commit: the ticket is read first, and this one was never issued.
  [paths.managerTransfer]: {
    input: (t) => ({ subject_uid: t.sid, transfer_ticket: 'x'.repeat(43) }),
    allowedAs: 'transferTicketInvalid',
  },
  // Either side of an open transfer: with none open, every member is told there is none.
  [paths.managerAbandon]: { input: (t) => ({ subject_uid: t.sid }), allowedAs: 'transferNotFound' },
  [paths.managerPending]: { input: (t) => ({ subject_uid: t.sid }) },
  [paths.domainAdd]: { input: (t) => ({ subject_uid: t.sid, domain: `${t.freshKey()}.example.com` }) },
  [paths.domainList]: { input: (t) => ({ subject_uid: t.sid }) },
  // A domain nobody added: no DNS look-up, and the operation answers that it has no such domain.
  [paths.domainVerify]: {
    input: (t) => ({ subject_uid: t.sid, domain: 'never-added.example.com' }),
    allowedAs: 'domainNotFound',
  },
  // An issuer the rule refuses: nothing is fetched.
  [paths.connectionSave]: {
    input: (t) => ({
      subject_uid: t.sid,
      issuer: 'ftp://idp.example.com',
      client_id: 'c',
      client_secret: 's',
    }),
    allowedAs: 'connectionIssuerInvalid',
  },
  // Metadata that is not a SAML IdP's: refused, nothing saved.
  [paths.samlConnectionSave]: {
    input: (t) => ({ subject_uid: t.sid, metadata_xml: '<not-metadata/>' }),
    allowedAs: 'connectionMetadataInvalid',
  },
  [paths.connectionInfo]: { input: (t) => ({ subject_uid: t.sid }), allowedAs: 'connectionNotFound' },
  [paths.connectionRemove]: { input: (t) => ({ subject_uid: t.sid }), allowedAs: 'connectionNotFound' },
  // Requiring single sign-on without a connection: refused, nothing saved.
  [paths.policySave]: {
    input: (t) => ({ subject_uid: t.sid, require_sso: true }),
    allowedAs: 'connectionNotFound',
  },
  [paths.policyInfo]: { input: (t) => ({ subject_uid: t.sid }) },
  // An organisation's management API keys are its manager's alone.
  [paths.apiKeyList]: { input: (t) => ({ subject_uid: t.sid }), managerOnly: true },
  [paths.apiKeyCreate]: {
    input: (t) => ({ subject_uid: t.sid, name: 'probe', scopes: 'organisations:read' }),
    managerOnly: true,
  },
  [paths.apiKeyRevoke]: { input: (t) => ({ subject_uid: t.sid, id: 'never-made' }), managerOnly: true },
  [paths.domainRemove]: {
    input: (t) => ({ subject_uid: t.sid, domain: 'never-added.example.com' }),
    allowedAs: 'domainNotFound',
  },
};

/** An answer's name: an error code's stable name, or what went wrong on the way. */
const CODE_NAMES = new Map<number, string>(
  [...Object.entries(ErrorCode), ...Object.entries(OrganisationErrorCode)].map(([name, code]) => [
    code as number,
    name,
  ]),
);
function outcomeOf(error: unknown): string {
  if (!isAccountError(error)) return `thrown: ${String(error)}`;
  if (error.kind !== 'response') return `${error.kind} (HTTP ${error.status ?? '-'}): ${error.message}`;
  return CODE_NAMES.get(error.error_code) ?? `code ${error.error_code}`;
}

/** The matrix's own bound: see its test. */
const MATRIX_TIMEOUT_MS = 600_000;

it('every declared member operation, with the routes and inputs the matrix needs', () => {
  expect(memberOperations.length).toBeGreaterThan(0);
  const missing = memberOperations.flatMap((op) => {
    const route = routeOf(op);
    if (!route) return [`${op.name}: mounted on no aff route`];
    return PROBES[route.path] ? [] : [`${op.name}: no input in PROBES for ${route.path}`];
  });
  expect(missing).toEqual([]);
});

it(
  'a member holding one permission may do exactly what it grants, else PERMISSION_DENIED',
  async () => {
    const probed = memberOperations.flatMap((op) => {
      const route = routeOf(op);
      const probe = route && PROBES[route.path];
      return route && probe ? [{ op, route, probe }] : [];
    });
    const boss = await manager(server(), 'Matrix Ltd');
    const permissions = accessStatement(server().config.organisations?.statement).all;
    let keys = 0;
    const link = () =>
      aff
        .inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'Invited' })
        .then((i) => i.invite_id);
    const [cancel, resend, update] = await Promise.all([link(), link(), link()]);
    const [targetRole, toFreeze, toRemove, grantee, ...probers] = await Promise.all([
      role(boss, TARGET_ROLE, []).then(() => TARGET_ROLE),
      member(server(), boss, []),
      member(server(), boss, []),
      member(server(), boss, []),
      ...permissions.map((permission) => member(server(), boss, [permission])),
    ]);

    const expected: string[] = [];
    const got: string[] = [];
    await Promise.all(
      permissions.map(async (permission, i) => {
        const prober = probers[i]!;
        const targets: Targets = {
          sid: boss.sid,
          self: prober.identity,
          role: targetRole,
          toFreeze: toFreeze.identity,
          toRemove: toRemove.identity,
          grantee: grantee.identity,
          freshKey: () => {
            keys += 1;
            return `probe${keys}`;
          },
          invitations: { cancel, resend, update },
          freshMobile,
        };
        // One member's probes one after another; the members side by side.
        for (const { op, route, probe } of probed) {
          const declared = op.caller.kind === 'identity' ? op.caller.permission : null;
          const allowed = !probe.managerOnly && (declared === null || declared === permission);
          const answer = allowed ? (probe.allowedAs ?? 'allowed') : 'permissionDenied';
          const outcome = await prober.client
            .request({ method: route.method, path: route.path, data: probe.input(targets) })
            .then(
              () => 'allowed',
              (error: unknown) => outcomeOf(error),
            );
          const row = `${permission} → ${op.name} (${route.path})`;
          expected.push(`${row}: ${answer}`);
          got.push(`${row}: ${outcome}`);
        }
      }),
    );
    expect(got.sort()).toEqual(expected.sort());
  },
  // About a thousand requests, each under the harness's per-request deadline (which names a hang):
  // this bound only stops a run that keeps moving, so it is sized for a machine loaded far past its
  // cores (the scenario bound alone timed out at a load average of 25 while every request answered).
  MATRIX_TIMEOUT_MS,
);
