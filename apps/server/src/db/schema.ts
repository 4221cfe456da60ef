/** Row types of every table, as Kysely sees them. Timestamps are ISO 8601 text on both dialects. */

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface Database {
  app_meta: AppMetaTable;
}
