import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { FIRST_LEGAL_DOCUMENTS } from '../routes/site/legal-content';
import type { Database } from './schema';

/** The tables an active identity is read from (src/domain/organisations/identity-lookup.ts). */
export const ORG_VERSIONED_TABLES = ['subjects', 'deputies', 'roles', 'deputy_roles'] as const;

/** The triggers of migration 0017 that bump `org_version`: one per table and event. */
export const ORG_VERSION_TRIGGERS = ORG_VERSIONED_TABLES.flatMap((table) =>
  (['insert', 'update', 'delete'] as const).map((event) => ({
    table,
    event,
    name: `${table}_${event}_org_version`,
  })),
);

/**
 * The one migration set, run at start on SQLite and PostgreSQL alike. Append new migrations; never
 * edit one that has shipped. Times are BIGINT milliseconds; ids are server-generated random text.
 */
/**
 * Which columns this server's tables have, for a migration that adds columns: it may run again (SQLite
 * migrations are not one transaction), so it adds each only when missing. On PostgreSQL only this
 * server's schema counts (the introspection lists every schema's tables).
 */
async function existingColumns(db: Kysely<unknown>): Promise<(table: string, column: string) => boolean> {
  let schema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema;
  }
  const tables = await db.introspection.getTables();
  return (table, column) =>
    tables
      .find((t) => t.name === table && (schema === undefined || t.schema === schema))
      ?.columns.some((c) => c.name === column) ?? false;
}

const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('mobile', 'text', (c) => c.unique())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('username', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('screen_name', 'text', (c) => c.notNull())
        .addColumn('is_frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('absolute_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .addColumn('fp', 'text')
        .addColumn('did', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

      await db.schema
        .createTable('one_time_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'integer', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('one_time_codes_lookup')
        .on('one_time_codes')
        .columns(['target', 'purpose', 'created_at'])
        .execute();
      await db.schema
        .createIndex('one_time_codes_expires_at')
        .on('one_time_codes')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('verify_tickets')
        .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'integer', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('verify_tickets_expires_at')
        .on('verify_tickets')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('fp', 'text', (c) => c.notNull())
        .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('devices_user_fp', ['user_id', 'fp'])
        .execute();

      await db.schema
        .createTable('outbox_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('outbox_messages_recipient')
        .on('outbox_messages')
        .columns(['recipient', 'created_at'])
        .execute();

      await createStoreEntries(db);
    },
  },
  /** User-token signing keys (src/domain/tokens/key-ring.ts); one key per generation, whichever instance makes it. */
  '0002_signing_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('private_jwk_sealed', 'text')
        .addColumn('activates_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('signing_keys_generation', ['generation'])
        .execute();
    },
  },
  /**
   * Remembered devices (second verification): `devices.fp` holds SHA-256 of the fingerprint and did,
   * never the raw fingerprint; the user agent is kept for the account's device list.
   */
  '0003_device_details': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('devices').addColumn('user_agent', 'text').execute();
      await db.schema.createIndex('devices_user_id').on('devices').column('user_id').execute();
    },
  },
  /**
   * Versioned legal documents (privacy policy, terms of service) the web app shows; a version is never
   * edited, a change is a new row. The first versions are seeded here (src/routes/site/legal-content.ts).
   */
  '0004_legal_documents': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('legal_documents')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('title_zh', 'text', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('body_zh', 'text', (c) => c.notNull())
        .addColumn('body_en', 'text', (c) => c.notNull())
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('legal_documents_pk', ['kind', 'id'])
        .execute();
      await (db as Kysely<Database>)
        .insertInto('legal_documents')
        .values([...FIRST_LEGAL_DOCUMENTS])
        .execute();
    },
  },
  /**
   * Device trust becomes a server secret (issue 9 item 3): a device is proven by a random token in an
   * HttpOnly cookie, stored as its SHA-256, no longer by the client-chosen fingerprint. The rows of
   * 0001/0003 were keyed by that fingerprint and prove nothing, so they go: every browser verifies once more.
   */
  '0005_device_tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('devices').execute();
      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addUniqueConstraint('devices_user_token', ['user_id', 'token_hash'])
        .execute();
      await db.schema.createIndex('devices_user_id').on('devices').column('user_id').execute();
      await db.schema.createIndex('devices_token_hash').on('devices').column('token_hash').execute();
    },
  },
  /**
   * Code lanes (issue 9 item 2): a code asked for from a device the target's account remembers is the
   * owner's, apart from every stranger's (src/domain/codes/codes.ts).
   */
  '0006_code_lanes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('one_time_codes')
        .addColumn('lane', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  /**
   * Identifier changes (issue 14): the verification tickets a signed-in person earns by proving it is
   * them (src/domain/verification-tickets), bound to the session that earned them.
   */
  '0007_identifier_changes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('verification_tickets')
        .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('verification_tickets_expires_at')
        .on('verification_tickets')
        .column('expires_at')
        .execute();
    },
  },
  /**
   * Third-party sign-in (issue 14 part 1): an account's linked GitHub and Google identities. A provider
   * identity belongs to one account; an account links at most one identity per provider.
   */
  '0008_linked_identities': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('linked_identities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text')
        .addColumn('avatar_url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addUniqueConstraint('linked_identities_subject', ['provider', 'subject'])
        .addUniqueConstraint('linked_identities_user_provider', ['user_id', 'provider'])
        .execute();
    },
  },
  /**
   * Organisations (issue 12, src/domain/organisations): subjects, member identities (deputies), roles
   * and the member-role links; the active identity of a session. Exactly one manager per subject is
   * the database's rule (a partial unique index), not only the code's.
   */
  '0012_organisations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('subjects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('base_infos', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('detail_infos', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('identity_card_sealed', 'text')
        .addColumn('real_name_sealed', 'text')
        .addColumn('is_frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('deputies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('deputy_name', 'text', (c) => c.notNull())
        .addColumn('is_manager', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('deputies_subject_user', ['subject_id', 'user_id'])
        .execute();
      await db.schema.createIndex('deputies_user_id').on('deputies').column('user_id').execute();
      await db.schema
        .createIndex('deputies_one_manager')
        .on('deputies')
        .column('subject_id')
        .unique()
        .where(sql.ref('is_manager'), '=', 1)
        .execute();
      await db.schema
        .createTable('roles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('role_key', 'text', (c) => c.notNull())
        .addColumn('role_name', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_banned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('roles_subject_key', ['subject_id', 'role_key'])
        .execute();
      await db.schema
        .createTable('deputy_roles')
        .addColumn('deputy_id', 'text', (c) => c.notNull().references('deputies.id').onDelete('cascade'))
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('deputy_roles_pk', ['deputy_id', 'role_id'])
        .execute();
      await db.schema.createIndex('deputy_roles_role_id').on('deputy_roles').column('role_id').execute();
      // The active identity of a session: null for the personal one. Removing the identity ends it.
      await db.schema
        .alterTable('sessions')
        .addColumn('deputy_id', 'text', (c) => c.references('deputies.id').onDelete('set null'))
        .execute();
    },
  },
  /**
   * Profiles and uploads (issue 17): the editable profile on the user row (the session lookup reads it
   * at no extra cost), one row per profile change for the update quotas, and the images themselves in
   * the database so that every instance serves them.
   */
  '0010_profiles': {
    async up(db: Kysely<unknown>) {
      const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
      // SQLite adds one column per statement.
      const users = () => db.schema.alterTable('users');
      await users()
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await users().addColumn('birthday', 'text').execute();
      await users()
        .addColumn('gender', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await users().addColumn('avatar_key', 'text').execute();
      await users().addColumn('name_set_at', 'bigint').execute();
      await db.schema
        .createTable('profile_updates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('namespace', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('profile_updates_lookup')
        .on('profile_updates')
        .columns(['user_id', 'namespace', 'field', 'at'])
        .execute();
      await db.schema
        .createTable('images')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('review_state', 'text', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('images_owner_id').on('images').column('owner_id').execute();
    },
  },
  /**
   * Account cancellation (issue 17): when it was requested and when the cooling-off period ends; after
   * erasure the row stays as a tombstone (erased_at) so the id is never reused.
   */
  '0011_cancellation': {
    async up(db: Kysely<unknown>) {
      for (const name of ['cancel_requested_at', 'cancel_erase_at', 'erased_at'])
        await db.schema.alterTable('users').addColumn(name, 'bigint').execute();
      await db.schema.createIndex('users_cancel_erase_at').on('users').column('cancel_erase_at').execute();
    },
  },
  /**
   * Invitations and the manager transfer (issue 13). An invitation holds only the SHA-256 of its ticket;
   * its identity's id (deputy_id) is fixed at creation and unique, so one invitation makes at most one
   * membership. A subject has at most one open transfer (the primary key); removing either identity
   * ends it.
   */
  '0013_invitations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('inviter_deputy_id', 'text', (c) => c.references('deputies.id').onDelete('set null'))
        .addColumn('inviter_name', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('contact', 'text')
        .addColumn('deputy_id', 'text', (c) => c.notNull().unique())
        .addColumn('deputy_name', 'text', (c) => c.notNull())
        .addColumn('role_keys', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('next_url', 'text')
        .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('ticket_hash', 'text', (c) => c.notNull().unique())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('resent_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('accepted_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invitations_subject')
        .on('invitations')
        .columns(['subject_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('manager_transfers')
        .addColumn('subject_id', 'text', (c) => c.primaryKey().references('subjects.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('from_deputy_id', 'text', (c) => c.notNull().references('deputies.id').onDelete('cascade'))
        .addColumn('to_deputy_id', 'text', (c) => c.notNull().references('deputies.id').onDelete('cascade'))
        .addColumn('from_user_id', 'text', (c) => c.notNull())
        .addColumn('to_user_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('manager_transfers_to_user')
        .on('manager_transfers')
        .column('to_user_id')
        .execute();
      await db.schema
        .createIndex('manager_transfers_from_user')
        .on('manager_transfers')
        .column('from_user_id')
        .execute();
    },
  },
  /**
   * Monitoring (issue 18): one row per event the collector kept, its few aggregated fields in columns
   * (docs/monitoring.md). `at` is the event's time (clamped to the receipt's day), `day` its UTC date;
   * `weight` is 1 / rate. Rows older than MONITOR_RETENTION_DAYS are deleted by housekeeping.
   */
  '0015_monitoring': {
    async up(db: Kysely<unknown>) {
      await createMonitorEvents(db);
    },
  },
  /**
   * The waitlist (issue 18): one entry per verified mobile or e-mail; an admission's single-use token
   * is kept as its HMAC.
   */
  '0016_waitlist': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('waitlist_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('admitted_at', 'bigint')
        .addColumn('admitted_by', 'text')
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('registered_at', 'bigint')
        .addUniqueConstraint('waitlist_entries_target', ['channel', 'target'])
        .execute();
      await db.schema
        .createIndex('waitlist_entries_state')
        .on('waitlist_entries')
        .columns(['state', 'created_at'])
        .execute();
    },
  },
  /**
   * The organisation tables' version, on SQLite only: one row that triggers bump on every insert,
   * update and delete of a subject, an identity, a role or a role link, on any connection. The session
   * lookup reads it with the session row (one subquery, about 0.1 µs) and the identity lookup keeps each
   * active identity until it moves (src/domain/organisations/identity-lookup.ts). PostgreSQL reads the
   * identity afresh on every request and needs neither.
   */
  '0017_org_version': {
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) return;
      // Each statement may run again: SQLite migrations are not one transaction, so a start that
      // stopped half-way through this one finishes it on the next.
      await sql`create table if not exists org_version (id integer primary key check (id = 1), v integer not null)`.execute(
        db,
      );
      await sql`insert or ignore into org_version (id, v) values (1, 0)`.execute(db);
      for (const trigger of ORG_VERSION_TRIGGERS)
        await sql
          .raw(
            `create trigger if not exists ${trigger.name} after ${trigger.event} on ${trigger.table} ` +
              'begin update org_version set v = v + 1 where id = 1; end',
          )
          .execute(db);
    },
  },
  /**
   * Open authorization (issue 16): every record the OpenID provider keeps (clients, grants, codes,
   * tokens, interactions, its sessions) in one table keyed by model and id, indexed by grant for
   * revocation, by account for the apps a person authorised or registered (src/domain/open-auth).
   */
  '0014_open_auth': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('open_auth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('account_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('open_auth_records_pk', ['model', 'id'])
        .execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).on('open_auth_records').columns(columns).execute();
      await index('open_auth_records_grant_id', ['grant_id']);
      await index('open_auth_records_uid', ['model', 'uid']);
      await index('open_auth_records_account', ['model', 'account_id']);
      await index('open_auth_records_client', ['model', 'client_id']);
      await index('open_auth_records_expires_at', ['expires_at']);
    },
  },
  /**
   * The events outbox: each operation's events commit with its change; consumers (the audit log,
   * webhooks) read them in `position` order and keep their place in `event_cursors`.
   */
  '0018_events': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('events')
        .ifNotExists()
        .addColumn('position', postgres ? 'bigserial' : 'integer', (c) =>
          postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('stream', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'text')
        .addColumn('subject_id', 'text')
        .addColumn('target_user_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('device_id', 'text')
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).ifNotExists().on('events').columns(columns).execute();
      await index('events_stream', ['stream', 'position']);
      await index('events_subject', ['subject_id', 'position']);
      await index('events_target_user', ['target_user_id', 'position']);
      await index('events_actor_user', ['actor_user_id', 'position']);
      await index('events_occurred_at', ['occurred_at']);
      await db.schema
        .createTable('event_cursors')
        .ifNotExists()
        .addColumn('consumer', 'text', (c) => c.primaryKey())
        .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('retry_at', 'bigint')
        .addColumn('last_error', 'text')
        .execute();
    },
  },
  /**
   * The audit log (src/events/consumers/audit-log): the events people, managers and operators read,
   * copied from the outbox by its consumer and deleted after AUDIT_RETENTION_DAYS.
   */
  '0019_audit_log': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('audit_log')
        .ifNotExists()
        .addColumn('position', 'bigint', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'text')
        .addColumn('subject_id', 'text')
        .addColumn('target_user_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('device_id', 'text')
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).ifNotExists().on('audit_log').columns(columns).execute();
      await index('audit_log_subject', ['subject_id', 'position']);
      await index('audit_log_target_user', ['target_user_id', 'position']);
      await index('audit_log_actor_user', ['actor_user_id', 'position']);
      await index('audit_log_occurred_at', ['occurred_at']);
    },
  },
  /**
   * Erasure finds a person's invitations by their contact and by the account that accepted them
   * (src/domain/organisations/cancellation.ts): without these it read the whole table for each erasure.
   */
  '0020_invitation_lookups': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createIndex('invitations_contact')
        .ifNotExists()
        .on('invitations')
        .column('contact')
        .execute();
      await db.schema
        .createIndex('invitations_accepted_by')
        .ifNotExists()
        .on('invitations')
        .column('accepted_by')
        .execute();
    },
  },
  /**
   * Step-up (src/domain/sessions/step-up.ts): when the person last proved it is them in a session.
   * Sessions from before it have none, and a step-up asks them again.
   */
  '0021_session_verified_at': {
    async up(db: Kysely<unknown>) {
      // It may run again (SQLite migrations are not one transaction): add the column only when missing.
      // On PostgreSQL the introspection lists every schema of the database: read this schema's table (a
      // deployment's DATABASE_SCHEMA beside another's `sessions` would otherwise skip the column).
      const schema =
        db.getExecutor().adapter instanceof PostgresAdapter
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
          : undefined;
      const sessions = (await db.introspection.getTables()).find(
        (table) => table.name === 'sessions' && (schema === undefined || table.schema === schema),
      );
      if (sessions?.columns.some((column) => column.name === 'verified_at')) return;
      await db.schema.alterTable('sessions').addColumn('verified_at', 'bigint').execute();
    },
  },
  /**
   * Authenticator apps and recovery codes (src/domain/factors, docs/factors.md): one authenticator per
   * account, its secret sealed with the server's secret; recovery codes only as their HMAC.
   */
  '0022_factors': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('totp_factors')
        .ifNotExists()
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('confirmed_at', 'bigint')
        .addColumn('last_step', 'bigint')
        .execute();
      await db.schema
        .createTable('recovery_codes')
        .ifNotExists()
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('recovery_codes_user')
        .ifNotExists()
        .on('recovery_codes')
        .column('user_id')
        .execute();
    },
  },
  /**
   * API keys of the management API (src/domain/api-keys): kept as the HMAC of the key, never the key;
   * `expires_at` also ends a rotated key after its overlap.
   */
  '0023_api_keys': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('api_keys')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
    },
  },
  /**
   * Passkeys (docs/factors.md): each WebAuthn credential of an account, and the account's user handle,
   * random (no personal data) and the same for all its passkeys.
   */
  '0024_passkeys': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('passkey_user_handles')
        .ifNotExists()
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('passkeys')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('aaguid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('passkeys_user').ifNotExists().on('passkeys').column('user_id').execute();
    },
  },
  /**
   * 0021 again, looking in the right place: on PostgreSQL the introspection lists the tables of every
   * schema of the database, so with another schema's `sessions` (DATABASE_SCHEMA deployments sharing a
   * database, the test suites) 0021 could find that one's column and skip its own. Adds the column
   * where it is missing in the schema this server uses; nothing where 0021 added it.
   */
  '0025_session_verified_at_in_schema': {
    async up(db: Kysely<unknown>) {
      let schema: string | undefined;
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
        schema = rows[0]?.schema;
      }
      const sessions = (await db.introspection.getTables()).find(
        (table) => table.name === 'sessions' && (schema === undefined || table.schema === schema),
      );
      if (!sessions || sessions.columns.some((column) => column.name === 'verified_at')) return;
      await db.schema.alterTable('sessions').addColumn('verified_at', 'bigint').execute();
    },
  },
  /**
   * An organisation's API keys (docs/management-api.md): a key limited to one organisation, made by its
   * manager, names it; a deployment's key has none.
   */
  '0026_api_key_subject': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      let schema: string | undefined;
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
        schema = rows[0]?.schema;
      }
      const keys = (await db.introspection.getTables()).find(
        (table) => table.name === 'api_keys' && (schema === undefined || table.schema === schema),
      );
      if (keys && !keys.columns.some((column) => column.name === 'subject_id'))
        await db.schema.alterTable('api_keys').addColumn('subject_id', 'text').execute();
      await db.schema
        .createIndex('api_keys_subject')
        .ifNotExists()
        .on('api_keys')
        .column('subject_id')
        .execute();
    },
  },
  /**
   * Webhooks (docs/webhooks.md): endpoints, per deployment (`subject_id` null) or per organisation, and
   * one delivery per endpoint and event, with its attempts.
   */
  '0027_webhooks': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('webhook_endpoints')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'bigint')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('failing_since', 'bigint')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_subject')
        .ifNotExists()
        .on('webhook_endpoints')
        .column('subject_id')
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_position', 'bigint', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('stream', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_latency_ms', 'integer')
        .addColumn('last_response', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .ifNotExists()
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_queue')
        .ifNotExists()
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'stream', 'event_position'])
        .execute();
      await db.schema
        .createTable('webhook_attempts')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('response', 'text')
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .ifNotExists()
        .on('webhook_attempts')
        .columns(['delivery_id', 'at'])
        .execute();
    },
  },
  /**
   * Enterprise sign-in (docs/enterprise-sso.md): an organisation's e-mail domains and the DNS TXT value
   * that proves each, and its single sign-on connection. `verified_domain` is the domain once verified and null before: unique, so two
   * organisations never both verify one domain (NULLs are distinct on SQLite and PostgreSQL).
   */
  '0028_enterprise_sign_in': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('organisation_domains')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('verified_domain', 'text', (c) => c.unique())
        .addColumn('verified_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('organisation_domains_subject_domain', ['subject_id', 'domain'])
        .execute();
      await db.schema
        .createIndex('organisation_domains_domain')
        .ifNotExists()
        .on('organisation_domains')
        .column('domain')
        .execute();
      await db.schema
        .createTable('organisation_sso_connections')
        .ifNotExists()
        .addColumn('subject_id', 'text', (c) => c.primaryKey())
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * Signing in through an organisation's connection (docs/enterprise-sso.md): the organisation's
   * single sign-on policy (require it, the role rules of a first sign-in) and the identity provider's
   * people linked to accounts.
   */
  '0029_sso_sign_in': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('organisation_sso_policies')
        .ifNotExists()
        .addColumn('subject_id', 'text', (c) => c.primaryKey())
        .addColumn('require_sso', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('default_role_key', 'text')
        .addColumn('role_rules', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('organisation_sso_identities')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('idp_subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('organisation_sso_identities_idp', ['subject_id', 'issuer', 'idp_subject'])
        .execute();
      await db.schema
        .createIndex('organisation_sso_identities_user')
        .ifNotExists()
        .on('organisation_sso_identities')
        .column('user_id')
        .execute();
    },
  },
  // Users imported from another provider's export (docs/importing-users.md): their hashes stay in
  // users.password_hash in their own format; this maps the provider's user id to the account.
  '0030_imported_passwords': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('imported_users')
        .ifNotExists()
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('imported_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('imported_users_pk', ['source', 'source_id'])
        .execute();
      await db.schema
        .createIndex('imported_users_user_id')
        .ifNotExists()
        .on('imported_users')
        .column('user_id')
        .execute();
    },
  },
  /**
   * "Members must use a second factor" (docs/organisations.md): the organisation's setting, and when a
   * session last proved a second factor (a passkey, an authenticator app or a recovery code), by which
   * the setting is judged. Sessions from before it have proved none.
   */
  '0031_org_second_factor': {
    async up(db: Kysely<unknown>) {
      const has = await existingColumns(db);
      if (!has('subjects', 'require_second_factor'))
        await db.schema
          .alterTable('subjects')
          .addColumn('require_second_factor', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      if (!has('sessions', 'factor_verified_at'))
        await db.schema.alterTable('sessions').addColumn('factor_verified_at', 'bigint').execute();
    },
  },
  /**
   * Webhook delivery retention (docs/webhooks.md): the sweep deletes finished deliveries queued before a
   * time, found by status and queue time.
   */
  '0032_webhook_delivery_retention': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('webhook_deliveries_finished')
        .ifNotExists()
        .on('webhook_deliveries')
        .columns(['status', 'created_at'])
        .execute();
    },
  },
  /**
   * SCIM 2.0 provisioning (docs/scim.md): the identity provider's users of an organisation, each an
   * account and a membership, their SCIM attributes kept as sent; and which roles SCIM made (a SCIM
   * group is a role).
   */
  '0033_scim': {
    async up(db: Kysely<unknown>) {
      // Each statement may run again (SQLite migrations are not one transaction).
      await db.schema
        .createTable('scim_users')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_name', 'text', (c) => c.notNull())
        // userName is not case-exact (RFC 7643 §4.1.1): uniqueness and `eq` go by its lower case.
        .addColumn('user_name_key', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('scim_users_subject_user_name', ['subject_id', 'user_name_key'])
        .addUniqueConstraint('scim_users_subject_user', ['subject_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('scim_groups')
        .ifNotExists()
        .addColumn('role_id', 'text', (c) => c.primaryKey().references('roles.id').onDelete('cascade'))
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('external_id', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * SAML 2.0 connections (docs/enterprise-sso.md) beside OpenID Connect: the identity provider's
   * single sign-on address (HTTP-Redirect) and its signing certificates (a JSON array of base64 DER).
   * A SAML connection keeps the IdP's entity id in `issuer` and an empty client id and secret.
   */
  '0034_saml_connections': {
    async up(db: Kysely<unknown>) {
      const has = await existingColumns(db);
      if (!has('organisation_sso_connections', 'saml_sso_url'))
        await db.schema
          .alterTable('organisation_sso_connections')
          .addColumn('saml_sso_url', 'text')
          .execute();
      if (!has('organisation_sso_connections', 'saml_certificates'))
        await db.schema
          .alterTable('organisation_sso_connections')
          .addColumn('saml_certificates', 'text')
          .execute();
    },
  },
  /**
   * The person's language (docs/web.md "Language"): saved when they switch while signed in, handed to a
   * browser that has no choice of its own when they sign in there. Null until they first switch.
   */
  '0035_user_language': {
    async up(db: Kysely<unknown>) {
      const has = await existingColumns(db);
      if (!has('users', 'language'))
        await db.schema.alterTable('users').addColumn('language', 'text').execute();
    },
  },
  /**
   * SCIM's memberships of accounts it did not make (docs/scim.md, "Which account"): `own_account`, the
   * account was made by the create (the organisation's own: it joins at once); `awaiting_acceptance`,
   * the membership SCIM made waits, frozen, for the person to accept it. And whether a first sign-in
   * through the organisation's connection makes a membership (`jit_provisioning`, docs/enterprise-sso.md).
   */
  '0036_scim_acceptance_sso_jit': {
    async up(db: Kysely<unknown>) {
      const has = await existingColumns(db);
      if (!has('scim_users', 'own_account')) {
        await db.schema
          .alterTable('scim_users')
          .addColumn('own_account', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // Users provisioned before this column: SCIM made the account when it is no older than the
        // User (an account that existed before was linked, and is older).
        await sql`update scim_users set own_account = 1 where exists (select 1 from users where users.id = scim_users.user_id and users.created_at >= scim_users.created_at)`.execute(
          db,
        );
      }
      if (!has('scim_users', 'awaiting_acceptance'))
        await db.schema
          .alterTable('scim_users')
          .addColumn('awaiting_acceptance', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      // Just-in-time membership through the organisation's connection, on unless turned off.
      if (!has('organisation_sso_policies', 'jit_provisioning'))
        await db.schema
          .alterTable('organisation_sso_policies')
          .addColumn('jit_provisioning', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
    },
  },
  /**
   * The address a SAML connection's metadata was read from (docs/enterprise-sso.md, "The SAML 2.0
   * connection"): saving the connection again reads it again. Null when the metadata was given. And
   * when the person declined the membership a SCIM User made (docs/scim.md, "Which account"): the
   * User's later reactivations do not make it again.
   */
  '0037_saml_metadata_url_scim_declined': {
    async up(db: Kysely<unknown>) {
      const has = await existingColumns(db);
      if (!has('organisation_sso_connections', 'saml_metadata_url'))
        await db.schema
          .alterTable('organisation_sso_connections')
          .addColumn('saml_metadata_url', 'text')
          .execute();
      if (!has('scim_users', 'declined_at'))
        await db.schema.alterTable('scim_users').addColumn('declined_at', 'bigint').execute();
    },
  },
  /**
   * The events by type in outbox order: a consumer that acts on a few types (the notices of a new way
   * in) finds its next event without reading the sign-ins between (src/events/dispatcher.ts, `types`).
   */
  '0038_events_type': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('events_type')
        .ifNotExists()
        .on('events')
        .columns(['type', 'position'])
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/**
 * The store's one table (src/store/database-store.ts). On PostgreSQL it lives in the main database
 * (migration 0001). On SQLite the store has a file of its own (src/db/database.ts), whose schema is this
 * table alone, created when the file is opened (`ifNotExists`); the copy migration 0001 made in the main
 * file stays empty.
 */
export async function createStoreEntries(db: Kysely<unknown>, ifNotExists = false): Promise<void> {
  const table = db.schema.createTable('store_entries');
  await (ifNotExists ? table.ifNotExists() : table)
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  const index = db.schema.createIndex('store_entries_expires_at');
  await (ifNotExists ? index.ifNotExists() : index).on('store_entries').column('expires_at').execute();
}

/**
 * The monitoring events table of migration 0015. On SQLite the server keeps it in a file of its own
 * (`monitor.db`, src/db/database.ts) and creates it there with `ifNotExists`: one definition for both.
 */
export async function createMonitorEvents(db: Kysely<unknown>, ifNotExists = false): Promise<void> {
  const table = db.schema.createTable('monitor_events');
  await (ifNotExists ? table.ifNotExists() : table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('flavour', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('weight', 'double precision', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('step', 'text')
    .addColumn('label', 'text')
    .addColumn('error_code', 'integer')
    .addColumn('status', 'integer')
    .addColumn('value', 'double precision')
    .execute();
  const byTime = db.schema.createIndex('monitor_events_at');
  await (ifNotExists ? byTime.ifNotExists() : byTime).on('monitor_events').column('at').execute();
  const byKind = db.schema.createIndex('monitor_events_kind_day');
  await (ifNotExists ? byKind.ifNotExists() : byKind).on('monitor_events').columns(['kind', 'day']).execute();
}
