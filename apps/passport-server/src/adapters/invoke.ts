import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import { assertHolds } from '../access/statement';
import { operationScope } from '../db/operation-scope';
import type { Database, User } from '../db/schema';
import { sendAccountNotice } from '../delivery/account-notice';
import { actorIn } from '../domain/organisations/actors';
import { factorClockOf } from '../domain/organisations/second-factor';
import { browserSessions, type SignInProven } from '../domain/sessions/browser';
import { assertVerifiedWithin } from '../domain/sessions/step-up';
import { createTickets } from '../domain/tickets/tickets';
import { createVerificationTickets } from '../domain/verification-tickets/verification-tickets';
import { PassportError } from '../errors';
import type { DomainEvent } from '../events/catalogue';
import { recordEvents } from '../events/outbox';
import type {
  Caller,
  CallerOf,
  CallerSpec,
  Notice,
  OneTimeValues,
  Operation,
  OperationContext,
  ProvenContact,
  RequestContext,
  RequestGate,
} from '../operations/define';

/**
 * Runs an operation for whoever an adapter proved the request comes from: resolves and checks the
 * caller the operation declares, opens one transaction, runs it, and commits its change and its events
 * together. Adapters call it; so do tests, with the person they act as.
 */

/**
 * Who a request proved to be, before an operation asks for more (an identity, a permission, a step-up):
 * nobody, or a person (by the session cookie, or a credential the route checked), with a contact it
 * proved by code. `verifiedAt`: when the person last proved it is them (ms), as the session records it;
 * absent, never.
 */
export type Principal =
  | { kind: 'anonymous' }
  | {
      kind: 'person';
      user: User;
      provenContact?: ProvenContact;
      verifiedAt?: number | null | undefined;
      /** When the session last proved a second factor (ms), as it records it; absent, never. */
      factorVerifiedAt?: number | null | undefined;
      /** How a sign-in proved the person (src/flows/complete-sign-in.ts admits it). */
      signIn?: SignInProven;
      /** The session that proved the person, when a session cookie did. */
      sessionId?: string;
      /** A registration's new account, its row made by the route and stored by the operation. */
      newAccount?: boolean;
    }
  /** A management API key the adapter found usable (src/routes/management/index.ts). */
  | { kind: 'apiKey'; keyId: string; scopes: ReadonlySet<string>; subjectId: string | null };

const NO_REQUEST: RequestContext = { ip: null, deviceId: null };

/** Without a request there is nobody to challenge: a message cannot be admitted. */
const NO_GATE: RequestGate = {
  admitInvitation: () => Promise.reject(new Error('no request to admit a message for: call through a route')),
  language: 'zh',
};

/** What an adapter binds to the request it serves, beyond where it came from. */
export interface InvokeOptions {
  /** The outbound gate for the request (its challenge pass, address and device). */
  gate?: RequestGate;
  /**
   * What the adapter writes with the change, in its transaction, after `run` (a session re-issued to
   * this browser): it commits with the change or not at all.
   */
  within?: (tx: Kysely<Database>, output: unknown) => Promise<void>;
}

/**
 * Sends an operation's notices once its change has committed, each through the gate's account-notice
 * count in its fixed template. A notice refused (past that count) or undelivered is logged; the change
 * stands.
 */
async function sendNotices(app: FastifyInstance, notices: readonly Notice[], gate: RequestGate) {
  for (const notice of notices) await sendAccountNotice(app, notice, notice.language ?? gate.language);
}

/**
 * The store's single-use values for an operation (OneTimeValues): the keys it declares taken before the
 * transaction, what it puts written after the commit.
 */
function oneTimeValues(op: Operation, taken: Map<string, string | null>) {
  const puts: [key: string, value: string, ttlMs: number][] = [];
  const values: OneTimeValues = {
    put: (key, value, ttlMs) => void puts.push([key, value, ttlMs]),
    take(key) {
      if (!taken.has(key)) throw new Error(`${op.name} takes ${key}, which its \`takes\` does not name`);
      const value = taken.get(key) ?? null;
      taken.delete(key);
      return value;
    },
  };
  return { values, puts };
}

/**
 * What an API key may call, from the key alone (no database): the operation's scope, and for an
 * organisation's key only what declares it can be narrowed to one organisation. The management routes
 * ask it before their input checks too, so a key learns nothing of what it may not call.
 */
export function assertKeyMayCall(principal: Principal, operation: Operation): void {
  const spec = operation.caller;
  if (spec.kind !== 'apiKey') return;
  if (principal.kind !== 'apiKey') throw new PassportError('apiKeyInvalid');
  if (!principal.scopes.has(spec.scope)) throw new PassportError('insufficientScope', { scope: spec.scope });
  if (principal.subjectId !== null && !spec.organisation)
    throw new PassportError('insufficientScope', { reason: 'organisation' });
}

async function callerFor(
  app: FastifyInstance,
  tx: Kysely<Database>,
  operation: Operation,
  input: unknown,
  principal: Principal,
): Promise<Caller> {
  const spec: CallerSpec = operation.caller;
  switch (spec.kind) {
    case 'anonymous':
      return { kind: 'anonymous' };
    case 'person':
      if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
      return {
        kind: 'person',
        user: principal.user,
        ...(principal.provenContact && { provenContact: principal.provenContact }),
        ...(principal.signIn && { signIn: principal.signIn }),
        ...(principal.sessionId && { sessionId: principal.sessionId }),
        ...(principal.newAccount && { newAccount: true }),
        factorClock: factorClockOf(app, principal.factorVerifiedAt),
      };
    case 'identity': {
      if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
      const subjectId = (operation.subject as (input: unknown) => string)(input);
      const options = {
        frozenSubjectOk: spec.frozenSubjectOk ?? false,
        factor: factorClockOf(app, principal.factorVerifiedAt),
      };
      const actor = await actorIn(tx, app.organisations.access, principal.user, subjectId, options);
      if (spec.permission) assertHolds(actor.permissions, spec.permission);
      return { kind: 'identity', ...actor };
    }
    case 'apiKey':
      assertKeyMayCall(principal, operation);
      if (principal.kind !== 'apiKey') throw new PassportError('apiKeyInvalid');
      // A frozen organisation acts through nobody: its keys stop with its members, reads included.
      if (principal.subjectId !== null) {
        const subject = await tx
          .selectFrom('subjects')
          .select('is_frozen')
          .where('id', '=', principal.subjectId)
          .executeTakeFirst();
        if (Number(subject?.is_frozen) === 1) throw new PassportError('subjectFrozen');
      }
      return {
        kind: 'apiKey',
        keyId: principal.keyId,
        scopes: principal.scopes,
        subjectId: principal.subjectId,
      };
  }
}

/**
 * An operation that declares `stepUp` runs only for a person who proved it is them within that many
 * seconds (the one check, src/domain/sessions/step-up.ts); STEP_UP_REQUIRED otherwise.
 */
export async function assertStepUp(
  app: FastifyInstance,
  tx: Kysely<Database>,
  operation: Operation,
  principal: Principal,
): Promise<void> {
  if (operation.stepUp === undefined) return;
  if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
  const maxAgeMs =
    operation.stepUp === 'window' ? app.runtime.limits.stepUpMaxAgeMs : operation.stepUp * 1000;
  await assertVerifiedWithin(app, tx, principal.user, principal.verifiedAt, maxAgeMs);
}

/** Refuses, at declaration, an operation no adapter can run safely yet. */
export function assertMountable(operation: Operation): void {
  if (operation.stepUp !== undefined && operation.caller.kind === 'anonymous')
    throw new Error(
      `${operation.name} declares a step-up for an anonymous caller, who has nothing to verify`,
    );
  if (
    operation.stepUp !== undefined &&
    operation.stepUp !== 'window' &&
    !(Number.isFinite(operation.stepUp) && operation.stepUp > 0)
  )
    throw new Error(`${operation.name} declares a step-up of ${operation.stepUp} seconds`);
  if (operation.stepUp !== undefined && operation.caller.kind === 'apiKey')
    throw new Error(`${operation.name} declares a step-up for an API key, which no person holds`);
}

export async function invoke<S extends CallerSpec, I extends TSchema, O extends TSchema>(
  app: FastifyInstance,
  operation: Operation<S, I, O>,
  input: Static<I>,
  principal: Principal,
  request: RequestContext = NO_REQUEST,
  options: InvokeOptions = {},
): Promise<Static<O>> {
  const op = operation as unknown as Operation;
  assertMountable(op);
  const scope = { operation: op.name, open: true };
  const gate = options.gate ?? NO_GATE;
  const notices: Notice[] = [];
  // An operator's operation refuses anyone else first: nobody is asked to step up, nothing is taken.
  const operatorOnly = op.caller.kind === 'person' && op.caller.operator === true;
  if (operatorOnly && principal.kind === 'person' && !app.config.operators.includes(principal.user.id))
    throw new PassportError('notAnOperator');
  // Single-use store values, taken before the transaction (a refused step-up takes nothing).
  const taken = new Map<string, string | null>();
  if (op.takes) {
    // Outside the transaction: a refused step-up reads the account's ways through the app's handle.
    await assertStepUp(app, app.db, op, principal);
    for (const key of op.takes(input)) taken.set(key, await app.store.take(key));
  }
  const oneTime = oneTimeValues(op, taken);
  let output: Static<O>;
  try {
    output = await app.db.transaction().execute((tx) =>
      operationScope.run(scope, async () => {
        const caller = await callerFor(app, tx, op, input, principal);
        await assertStepUp(app, tx, op, principal);
        const at = app.runtime.now();
        const events: DomainEvent[] = [];
        const ctx: OperationContext = {
          caller,
          tx,
          now: () => app.runtime.now(),
          access: app.organisations.access,
          config: app.config,
          secret: app.secret,
          realName: app.organisations.realName,
          gate: {
            admitInvitation: (send) => gate.admitInvitation(send),
            notify: (notice) => void notices.push(notice),
          },
          cancellation: app.cancellation,
          tickets: createTickets(app, tx),
          verifications: createVerificationTickets(app, tx),
          accounts: { insert: (user) => app.accounts.insert(user, tx) },
          oneTime: oneTime.values,
          sessions: browserSessions(app, tx, request.browser),
          newId: randomUUID,
          request,
          emit(event) {
            if (!op.emits.includes(event.type))
              throw new Error(`${op.name} emits ${event.type}, which it does not declare`);
            events.push(event as DomainEvent);
          },
        };
        const output = await (
          operation.run as (ctx: OperationContext<CallerOf<S>>, input: Static<I>) => Promise<Static<O>>
        )(ctx as OperationContext<CallerOf<S>>, input);
        if (options.within) await options.within(tx, output);
        await recordEvents(tx, events, { at, ip: request.ip, deviceId: request.deviceId });
        return output;
      }),
    );
  } finally {
    scope.open = false;
  }
  // After the commit: the single-use values the operation put, then its notices through the gate.
  for (const [key, value, ttlMs] of oneTime.puts) await app.store.set(key, value, ttlMs);
  await sendNotices(app, notices, gate);
  return output;
}
