import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, SecurityTokenKind, SecurityTokenTable } from './schema.ts';

export type SecurityToken = Selectable<SecurityTokenTable>;

export interface NewSecurityToken {
  userId: string;
  kind: SecurityTokenKind;
  tokenHash: string;
  expiresAt: Date;
  restoreEmail?: string | null;
}

/** Stores a token. Several may be live at once: each change mailed has its own undo link. */
export async function createSecurityToken(
  db: Kysely<Database>,
  input: NewSecurityToken,
  now = new Date(),
): Promise<SecurityToken> {
  const row: SecurityToken = {
    id: newId(),
    user_id: input.userId,
    kind: input.kind,
    token_hash: input.tokenHash,
    created_at: now.toISOString(),
    expires_at: input.expiresAt.toISOString(),
    used_at: null,
    restore_email: input.restoreEmail ?? null,
  };
  await db.insertInto('security_token').values(row).execute();
  return row;
}

/** Uses up an unused, unexpired token of the kind; one statement, so it works once. */
export function consumeSecurityToken(
  db: Kysely<Database>,
  tokenHash: string,
  kind: SecurityTokenKind,
  now = new Date(),
): Promise<SecurityToken | undefined> {
  const timestamp = now.toISOString();
  return db
    .updateTable('security_token')
    .set({ used_at: timestamp })
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', timestamp)
    .returningAll()
    .executeTakeFirst();
}

/** Retires the user's unused tokens of a kind (an unlock link is moot once the account is unlocked). */
export async function retireSecurityTokens(
  db: Kysely<Database>,
  userId: string,
  kind: SecurityTokenKind,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('security_token')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .execute();
}
