import type { Migration } from 'kysely/migration';
import * as appMeta from './0001-app-meta.ts';
import * as accounts from './0002-accounts.ts';
import * as organisationAdmin from './0003-organisation-admin.ts';
import * as accountProtection from './0004-account-protection.ts';

/**
 * Every migration, by name; the Migrator runs them in name order. Listed by hand rather than
 * read from disk so that bundling, type stripping and tests all see the same set.
 */
export const migrations: Record<string, Migration> = {
  '0001-app-meta': appMeta,
  '0002-accounts': accounts,
  '0003-organisation-admin': organisationAdmin,
  '0004-account-protection': accountProtection,
};
