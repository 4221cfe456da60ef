import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, EmailTokenKind, EmailTokenTable } from './schema.ts';

export type EmailToken = Selectable<EmailTokenTable>;

export interface NewEmailToken {
  userId: string;
  kind: EmailTokenKind;
  tokenHash: string;
  expiresAt: Date;
  newEmail?: string | null;
}

/** Stores a token, retiring the user's earlier unused tokens of the same kind (only the newest link works). */
export async function createEmailToken(
  db: Kysely<Database>,
  input: NewEmailToken,
  now = new Date(),
): Promise<EmailToken> {
  const timestamp = now.toISOString();
  const row: EmailToken = {
    id: newId(),
    user_id: input.userId,
    kind: input.kind,
    token_hash: input.tokenHash,
    created_at: timestamp,
    expires_at: input.expiresAt.toISOString(),
    used_at: null,
    new_email: input.newEmail ?? null,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('email_token')
      .set({ used_at: timestamp })
      .where('user_id', '=', input.userId)
      .where('kind', '=', input.kind)
      .where('used_at', 'is', null)
      .execute();
    await trx.insertInto('email_token').values(row).execute();
  });
  return row;
}

/**
 * Uses up a token of one of the given kinds if it exists, is unused and unexpired; one
 * statement, so two requests with the same token cannot both succeed.
 */
export async function consumeEmailToken(
  db: Kysely<Database>,
  tokenHash: string,
  kinds: readonly EmailTokenKind[],
  now = new Date(),
): Promise<EmailToken | undefined> {
  const timestamp = now.toISOString();
  return db
    .updateTable('email_token')
    .set({ used_at: timestamp })
    .where('token_hash', '=', tokenHash)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', timestamp)
    .returningAll()
    .executeTakeFirst();
}

/** The address of the user's newest unused, unexpired email-change token. */
export async function findPendingEmailChange(
  db: Kysely<Database>,
  userId: string,
  now = new Date(),
): Promise<string | null> {
  const row = await db
    .selectFrom('email_token')
    .select('new_email')
    .where('user_id', '=', userId)
    .where('kind', '=', 'email-change')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.new_email ?? null;
}
