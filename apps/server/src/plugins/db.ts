import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { recordInstalledAt } from '../db/app-meta.ts';
import { type Dialect, migrateToLatest, openDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: Dialect;
  }
}

export interface DbOptions {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** Opens the database, migrates it to the latest schema and closes it with the app. */
export default fp<DbOptions>(
  async (app, options) => {
    const { db, dialect } = openDatabase({
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      onConnectionError: (error) => app.log.warn({ err: error }, 'PostgreSQL connection failed'),
    });
    try {
      await migrateToLatest(db);
      await recordInstalledAt(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    app.decorate('db', db);
    app.decorate('dbDialect', dialect);
    app.addHook('onClose', async () => {
      await db.destroy();
    });
    app.log.info({ dialect }, 'database ready');
  },
  { name: 'db' },
);
