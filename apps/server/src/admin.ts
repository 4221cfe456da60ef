/**
 * Administration from the shell, against the configured database (same environment as the server):
 *
 *   npm run admin -- create-user --email E --password P [--verified] [--role admin|member] [--org NAME]
 *   npm run admin -- reset-password --email E
 *
 * Exit codes: 0 done, 1 failed, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createAccount, prepareLinkMail } from './auth/accounts.ts';
import { ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { findOrganisationsByName } from './db/organisations.ts';
import type { Database } from './db/schema.ts';
import { findUserByEmail } from './db/users.ts';
import { createMailer } from './mail/mailer.ts';
import { HttpError } from './plugins/errors.ts';
import {
  isEmail,
  loadPasswordPolicy,
  newPasswordIssue,
  normaliseEmail,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from '@rfckit/standards';

const USAGE = `Usage:
  npm run admin -- create-user --email E --password P [--verified] [--role admin|member] [--org NAME]
      Creates a user. Without --org (or with a name no organisation has) a new organisation is
      created with the user as its admin; with the name of an existing one the user joins it
      (as a member unless --role admin).
  npm run admin -- reset-password --email E
      Prints a password reset link (valid 1 hour) and mails it (SMTP_URL, else DATA_DIR/outbox).`;

class UsageError extends Error {}

interface Output {
  out(line: string): void;
  err(line: string): void;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

function email(raw: string | undefined): string {
  const value = normaliseEmail(required(raw, '--email'));
  if (!isEmail(value)) throw new UsageError(`--email: "${value}" is not an email address`);
  return value;
}

async function createUserCommand(db: Kysely<Database>, args: string[], io: Output): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      verified: { type: 'boolean', default: false },
      role: { type: 'string' },
      org: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const address = email(values.email);
  const password = required(values.password, '--password');
  if (password.length < PASSWORD_MIN)
    throw new UsageError(`--password must be at least ${PASSWORD_MIN} characters long`);
  if (password.length > PASSWORD_MAX)
    throw new UsageError(`--password must be at most ${PASSWORD_MAX} characters`);
  // the same rule as registration (NIST SP 800-63B): no common, repeated or address-based password
  await loadPasswordPolicy();
  const passwordIssue = newPasswordIssue(password, address);
  if (passwordIssue !== undefined) throw new UsageError(`--password: ${passwordIssue}`);
  if (values.role !== undefined && values.role !== 'admin' && values.role !== 'member') {
    throw new UsageError(`--role must be admin or member (got "${values.role}")`);
  }
  const orgName = values.org?.trim();
  if (values.org !== undefined && (orgName === '' || (orgName?.length ?? 0) > 200)) {
    throw new UsageError('--org must be a name of 1 to 200 characters');
  }
  const existing = orgName === undefined ? undefined : (await findOrganisationsByName(db, orgName))[0];
  const role = values.role ?? (existing ? 'member' : 'admin');
  const { user, organisation } = await createAccount(db, {
    email: address,
    password,
    role,
    verified: values.verified,
    ...(orgName === undefined ? {} : { organisationName: orgName }),
    ...(existing === undefined ? {} : { organisationId: existing.id }),
    via: 'admin command',
  });
  io.out(
    `Created ${user.email} (id ${user.id}), ${role} of "${organisation.name}"${existing ? ' (existing organisation)' : ''}, ` +
      `email ${values.verified ? 'verified' : 'NOT verified: sign-in needs verification first'}.`,
  );
}

async function resetPasswordCommand(
  db: Kysely<Database>,
  args: string[],
  io: Output,
  config: ReturnType<typeof loadConfig>,
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const address = email(values.email);
  const user = await findUserByEmail(db, address);
  if (!user) throw new HttpError(404, 'NOT_FOUND', `No user with the email ${address}`);
  const message = await prepareLinkMail(db, config.appUrl, user, 'reset');
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log: {
      info: () => {},
      error: (details) => io.err(`mail failed: ${String((details as { err?: unknown }).err)}`),
    },
  });
  try {
    await mailer.send(message);
  } finally {
    await mailer.close();
  }
  io.out(`Password reset link for ${user.email} (valid 1 hour, single use):`);
  io.out(message.link);
  io.out(
    config.smtpUrl === undefined
      ? 'The message is also in DATA_DIR/outbox.'
      : 'The message was also sent by mail.',
  );
}

/** Runs one command; returns the exit code. */
export async function runAdmin(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Output = { out: (line) => console.log(line), err: (line) => console.error(line) },
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'create-user' && command !== 'reset-password') {
    io.err(`Unknown command "${command}".\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`rfckit admin: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const { db } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    if (command === 'create-user') await createUserCommand(db, args, io);
    else await resetPasswordCommand(db, args, io, config);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`rfckit admin ${command}: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof HttpError) {
      io.err(`rfckit admin ${command}: ${error.message}`);
      return 1;
    }
    io.err(`rfckit admin ${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

if (import.meta.main) {
  process.exitCode = await runAdmin(process.argv.slice(2), process.env);
}
