import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database, User } from '../../db/schema';

/**
 * What stands in the way of a cancellation, what it will take away, and what erasure must remove:
 * three small lists other areas add to at start, so the cancellation flow never needs to know them.
 * The organisations work adds a blocker "sole manager of an organisation" (transfer first) and an
 * eraser for memberships; third-party linking adds a loss "linked identities" and its eraser.
 */
/**
 * What a blocker or a loss reads through: the transaction of the cancellation's operation (so what it
 * finds holds until the commit), the server clock's now and the configuration.
 */
export interface CancelScope {
  db: Kysely<Database>;
  now: number;
  config: Pick<Config, 'operators' | 'cancelCoolingOffDays'>;
}

export interface CancelBlocker {
  /** A stable key the pages translate, e.g. 'sole_manager'. */
  key: string;
  /** Null when it does not block this account; otherwise details for the page (names, counts). */
  check(scope: CancelScope, user: User): Promise<null | Record<string, unknown>>;
  /**
   * Whether it still stands at erasure, read inside the erasure's transaction: a blocker that can come
   * about after the cancellation was confirmed (two requests race) keeps the account pending instead
   * of erased. Leave it out for one that cannot.
   */
  holdsErasure?(trx: Kysely<Database>, userId: string): Promise<boolean>;
}

export interface CancelLoss {
  /** A stable key the pages translate, e.g. 'pictures'. */
  key: string;
  /** How many of it the account holds (0 leaves it off the list). */
  count(scope: CancelScope, user: User): Promise<number>;
}

export interface CancelEraser {
  key: string;
  /**
   * Removes the account's rows of this kind inside the erasure's transaction; `identifiers` are the
   * mobile and e-mail the account held, for rows that name the person by them rather than by id.
   */
  erase(trx: Kysely<Database>, userId: string, identifiers: ErasedIdentifiers): Promise<void>;
}

export interface ErasedIdentifiers {
  mobile: string | null;
  email: string | null;
}

export interface CancellationRegistry {
  readonly blockers: CancelBlocker[];
  readonly losses: CancelLoss[];
  readonly erasers: CancelEraser[];
  addBlocker(blocker: CancelBlocker): void;
  addLoss(loss: CancelLoss): void;
  addEraser(eraser: CancelEraser): void;
}

const countOf = async (query: { executeTakeFirstOrThrow(): Promise<{ count: unknown }> }) =>
  Number((await query.executeTakeFirstOrThrow()).count);

/** The registry with what this package knows itself. */
export function createCancellationRegistry(): CancellationRegistry {
  const registry: CancellationRegistry = {
    blockers: [],
    losses: [],
    erasers: [],
    addBlocker: (blocker) => void registry.blockers.push(blocker),
    addLoss: (loss) => void registry.losses.push(loss),
    addEraser: (eraser) => void registry.erasers.push(eraser),
  };
  // A frozen account is under an operator's hold: leaving would erase what they are looking at.
  registry.addBlocker({
    key: 'account_frozen',
    check: async (_scope, user) => (Number(user.is_frozen) === 1 ? {} : null),
  });
  // An operator reviews other people's pictures: the configuration must drop them first.
  registry.addBlocker({
    key: 'operator',
    check: async ({ config }, user) => (config.operators.includes(user.id) ? {} : null),
  });
  registry.addLoss({ key: 'profile', count: async () => 1 });
  registry.addLoss({
    key: 'pictures',
    count: ({ db }, user) =>
      countOf(
        db
          .selectFrom('images')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('owner_id', '=', user.id),
      ),
  });
  registry.addLoss({
    key: 'devices',
    count: ({ db }, user) =>
      countOf(
        db
          .selectFrom('devices')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('user_id', '=', user.id),
      ),
  });
  registry.addLoss({
    key: 'identifiers',
    count: async (_scope, user) => [user.mobile, user.email, user.username].filter(Boolean).length,
  });
  // An organisation's identity provider's link to the account (docs/enterprise-sso.md) goes with it: a
  // later sign-in through the provider makes a new account, never reaching the erased one.
  for (const table of [
    'images',
    'profile_updates',
    'devices',
    'sessions',
    'organisation_sso_identities',
  ] as const) {
    registry.addEraser({
      key: table,
      erase: async (trx, userId) => {
        if (table === 'images') await trx.deleteFrom('images').where('owner_id', '=', userId).execute();
        else await trx.deleteFrom(table).where('user_id', '=', userId).execute();
      },
    });
  }
  // Passkeys (docs/factors.md): listed as lost, erased with the account, their user handle too.
  registry.addLoss({
    key: 'passkeys',
    count: ({ db }, user) =>
      countOf(
        db
          .selectFrom('passkeys')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('user_id', '=', user.id),
      ),
  });
  registry.addEraser({
    key: 'passkeys',
    erase: async (trx, userId) => {
      await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
      await trx.deleteFrom('passkey_user_handles').where('user_id', '=', userId).execute();
    },
  });
  // The provider's user id an import mapped to the account (docs/importing-users.md).
  registry.addEraser({
    key: 'imported_users',
    erase: async (trx, userId) => {
      await trx.deleteFrom('imported_users').where('user_id', '=', userId).execute();
    },
  });
  // The organisations' SCIM records of the person (docs/scim.md): their userName and attributes.
  registry.addEraser({
    key: 'scim_users',
    erase: async (trx, userId) => {
      await trx.deleteFrom('scim_users').where('user_id', '=', userId).execute();
    },
  });
  registry.addEraser({
    key: 'verify_tickets',
    erase: async (trx, userId) => {
      await trx.deleteFrom('verify_tickets').where('user_id', '=', userId).execute();
    },
  });
  return registry;
}
