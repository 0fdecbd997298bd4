import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import type { AccessStatement, Permission } from '../access/statement';
import type { Config } from '../config';
import type { Database, User } from '../db/schema';
import type { Admission, InvitationAdmission } from '../delivery/gate';
import type { Language, NoticeAbout } from '../delivery/templates';
import type { CancellationRegistry } from '../domain/cancellation/registry';
import type { Actor } from '../domain/organisations/actors';
import type { RealNameSealer } from '../domain/organisations/real-name';
import type { FactorClock } from '../domain/organisations/second-factor';
import type { BrowserSessions, SignInBrowser, SignInProven } from '../domain/sessions/browser';
import type { Tickets } from '../domain/tickets/tickets';
import type { VerificationTickets } from '../domain/verification-tickets/verification-tickets';
import type { DomainEvent, EventType } from '../events/catalogue';

/**
 * A capability is one declaration: its name, its input and output schemas (the one source of its wire
 * shape), the caller it needs, the events it emits and `run(ctx, input)`. An adapter (a route family,
 * later the management API) resolves and checks the caller, opens the transaction, runs it, and commits
 * the change with its events; `run` never sees the request, its cookies or headers, nor the app's
 * database handle (docs/operations.md).
 */

/** The caller an operation needs, as it declares it. */
export type CallerSpec =
  | { readonly kind: 'anonymous' }
  /**
   * A person's session. `operator`: only an operator (a user id in OPERATOR_USER_IDS); the adapter
   * refuses anyone else with NOT_AN_OPERATOR before the step-up and before `run`.
   */
  | { readonly kind: 'person'; readonly operator?: boolean }
  /**
   * A member identity in the subject the input names, holding `permission` (null: any member).
   * `frozenSubjectOk` lets the manager act in a frozen subject (to thaw it).
   */
  | { readonly kind: 'identity'; readonly permission: Permission | null; readonly frozenSubjectOk?: boolean }
  /**
   * An API key holding `scope`: declared for the management API, which brings its resolver.
   * `organisation`: an organisation's key may call it too (the operation narrows what it reads and
   * changes to `ctx.caller.subjectId`); without it only a deployment's key may.
   */
  | { readonly kind: 'apiKey'; readonly scope: string; readonly organisation?: boolean };

export const caller = {
  anonymous: { kind: 'anonymous' },
  person: { kind: 'person' },
  /** A person who is an operator of the deployment (the admin console, API keys, the deployment's webhooks). */
  operator: { kind: 'person', operator: true },
  identity: (permission: Permission | null, options: { frozenSubjectOk?: boolean } = {}) =>
    ({ kind: 'identity', permission, ...options }) as const,
  apiKey: (scope: string, options: { organisation?: boolean } = {}) =>
    ({ kind: 'apiKey', scope, ...options }) as const,
} as const satisfies Record<string, CallerSpec | ((...args: never[]) => CallerSpec)>;

/** A mobile or e-mail the request proved it holds with a code sent to it, beside the account's own. */
export interface ProvenContact {
  channel: 'mobile' | 'email';
  /** Normalised, as stored. */
  value: string;
}

/** The caller as the adapter proved it. */
export type Caller =
  | { kind: 'anonymous' }
  | {
      kind: 'person';
      user: User;
      provenContact?: ProvenContact;
      signIn?: SignInProven;
      /** The session the person acts through, when a session cookie proved them (kick_other keeps it). */
      sessionId?: string;
      /** The session's proof of a second factor (an organisation's requirement judges it). */
      factorClock?: FactorClock;
      /**
       * The route proved a new account's contact and made its row (`user`), not stored yet: the
       * registration operation stores it (`ctx.accounts.insert`) before it signs it in.
       */
      newAccount?: boolean;
    }
  | ({ kind: 'identity' } & Actor)
  /** `subjectId`: the organisation an organisation's key is limited to; null for a deployment's key. */
  | { kind: 'apiKey'; keyId: string; scopes: ReadonlySet<string>; subjectId: string | null };

export type CallerOf<S extends CallerSpec> = Extract<Caller, { kind: S['kind'] }>;

/** Where the request came from, kept with the events it causes. */
export interface RequestContext {
  ip: string | null;
  /** The device id the request carried (the `did` the SDK sends), when any. */
  deviceId: string | null;
  /** What the browser presented that a sign-in or a sign-out reads (`ctx.sessions`); routes only. */
  browser?: SignInBrowser | undefined;
  /**
   * The browser the request came from, as a keyed hash of its pre-session (else its session) id — the
   * binding CSRF and the codes' lanes use; '' without either. What a ceremony binds its challenge to.
   */
  client?: string | undefined;
}

/**
 * The outbound gate (src/delivery/gate.ts) as an adapter binds it to the request that asked: its
 * challenge pass, address and device, and the language its messages are written in.
 */
export interface RequestGate {
  admitInvitation(send: InvitationAdmission): Promise<Admission>;
  readonly language: Language;
}

/** A security notice to one of the account's own verified channels, in the fixed wording of its kind. */
export interface Notice {
  kind: NoticeAbout;
  channel: 'mobile' | 'email';
  /** The account's own mobile or e-mail, as stored. */
  to: string;
  /** The person's saved language; absent, the request's. */
  language?: Language;
}

/**
 * The only way an operation sends anything: there is no provider in `ctx`.
 * - `admitInvitation`: a message to someone else, admitted (the budgets per sender, recipient and
 *   address, and the challenge) before the operation writes, so a refused send changes nothing; the
 *   operation answers the admission and the adapter delivers it once the change has committed.
 * - `notify`: a notice to the person's own verified channel, in a fixed template (nobody's text in it);
 *   the adapter sends it once the change has committed, counted on its own hourly count per channel
 *   (never the recipient's budgets, which strangers can spend), and a notice refused or undelivered
 *   does not undo the change.
 */
export interface OperationGate {
  admitInvitation(send: InvitationAdmission): Promise<Admission>;
  notify(notice: Notice): void;
}

/**
 * Single-use values kept in the store with an expiry (a passkey ceremony's challenge). The store is not
 * the transaction's state, and on PostgreSQL without Redis it is a table reached through a connection of
 * its own: the adapter takes the keys an operation declares (`takes`) before its transaction opens, and
 * writes what it puts once the change has committed, so no operation holds a connection while it waits
 * for another. A value taken by a change that then fails stays taken: it is never usable twice.
 */
export interface OneTimeValues {
  /** Keeps `value` under `key` for `ttlMs` once the change has committed (nothing if it fails). */
  put(key: string, value: string, ttlMs: number): void;
  /**
   * What the adapter took under `key` before the transaction (null: absent or expired; a second
   * request taking it at the same time got null). Only a key the operation's `takes` named.
   */
  take(key: string): string | null;
}

/** New accounts, stored through the operation's transaction after the account guards (the waitlist). */
export interface NewAccounts {
  /** Stores the row; false when an account has its mobile or e-mail already. */
  insert(user: User): Promise<boolean>;
}

/** What `run` is given: everything it may touch. */
export interface OperationContext<C extends Caller = Caller> {
  readonly caller: C;
  /** The operation's transaction: every query of the operation goes through it. */
  readonly tx: Kysely<Database>;
  /** The server clock, in ms (the test clock moves it). */
  now(): number;
  readonly access: AccessStatement;
  /** The server's settings. */
  readonly config: Config;
  /** The server secret: keys what is stored only as its HMAC (tickets). */
  readonly secret: Buffer;
  /** Seals an organisation's real-name fields at rest (the key derives from the server secret). */
  readonly realName: RealNameSealer;
  /** The outbound gate: the one way an operation sends a message (no provider is in `ctx`). */
  readonly gate: OperationGate;
  /** What blocks a cancellation and what it takes away, as the areas registered them at start. */
  readonly cancellation: CancellationRegistry;
  /**
   * The single-use tickets a code earned in an earlier step (src/domain/tickets), read and spent
   * through `tx`: a ticket spent by a change that fails is not spent.
   */
  readonly tickets: Tickets;
  /**
   * The tickets a step-up earns for the session that proved it (src/domain/verification-tickets), issued
   * and spent through `tx`.
   */
  readonly verifications: VerificationTickets;
  /** New accounts (a registration's), through `tx`. */
  readonly accounts: NewAccounts;
  /** Single-use values in the store with expiry (src/domain/passkeys/ceremony.ts's challenges). */
  readonly oneTime: OneTimeValues;
  /**
   * The sessions of the browser the request came from, written through `tx`: sign-in and sign-out
   * operations (the adapter sets or clears the cookies after the commit).
   */
  readonly sessions: BrowserSessions;
  newId(): string;
  readonly request: RequestContext;
  /** Records an event of a type the operation declares; it commits with the change, or not at all. */
  emit<T extends EventType>(event: DomainEvent<T>): void;
}

export type Operation<
  S extends CallerSpec = CallerSpec,
  I extends TSchema = TSchema,
  O extends TSchema = TSchema,
> = {
  /** A stable dotted name, `organisation.role.ban`. */
  readonly name: string;
  readonly input: I;
  readonly output: O;
  readonly caller: S;
  /**
   * Seconds since the caller's last verification (the session's sign-in, or a later auth/verify or
   * account/verify) beyond which the operation answers STEP_UP_REQUIRED (2047) instead of running. The
   * adapter checks it (src/domain/sessions/step-up.ts); flow routes use the same check. `'window'`: the
   * server's step-up window (`limits.stepUpMaxAgeMs`), what every way in asks for.
   */
  readonly stepUp?: number | 'window';
  /**
   * The store keys `run` takes (`ctx.oneTime.take`), read from the input: the adapter takes them, single
   * use, before it opens the transaction (after the step-up check).
   */
  takes?(input: Static<I>): readonly string[];
  readonly emits: readonly EventType[];
  run(ctx: OperationContext<CallerOf<S>>, input: Static<I>): Promise<Static<O>>;
} & (S extends { kind: 'identity' }
  ? {
      /** The subject the identity acts in, read from the input. */
      subject(input: Static<I>): string;
    }
  : { subject?: never });

/** Declares an operation; `run`'s caller and input are typed from the declaration. */
export const defineOperation = <S extends CallerSpec, I extends TSchema, O extends TSchema>(
  operation: Operation<S, I, O>,
): Operation<S, I, O> => operation;
