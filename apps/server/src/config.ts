import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export const nodeEnvs = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof nodeEnvs)[number];

/** Which proxies may set X-Forwarded-*: all, none, or these addresses/ranges. */
export type TrustProxy = boolean | string[];

export interface Config {
  port: number;
  /** Undefined means every interface: `::` (dual stack), or `0.0.0.0` where IPv6 is unavailable. */
  host: string | undefined;
  /** Public origin (and optional path) without a trailing slash, e.g. `https://rfckit.example.org`. */
  publicUrl: string | undefined;
  dataDir: string;
  /** A `postgres://` URL switches the database from the SQLite file in `dataDir` to PostgreSQL. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  jwtSecretSource: 'env' | 'file';
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  webDist: string;
  nodeEnv: NodeEnv;
}

/** Thrown by `loadConfig`; `issues` holds one line per bad variable. */
export class ConfigError extends Error {
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export const JWT_SECRET_FILE = 'jwt-secret';
const MIN_JWT_SECRET_LENGTH = 32;
const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');
const trustProxyPresets = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Quotes a value for an error message, shortened so a pasted blob does not flood the terminal. */
function shown(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

function isAddressOrRange(entry: string): boolean {
  if (trustProxyPresets.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const envSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 8080;
      if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be an integer 0-65535 (got ${shown(raw)})` });
        return z.NEVER;
      }
      return Number(raw);
    }),
  HOST: z
    .string()
    .optional()
    .refine((raw) => raw === undefined || raw === 'localhost' || isIP(raw) !== 0, {
      error: (issue) =>
        `must be an IP address to listen on, such as :: or 127.0.0.1 (got ${shown(issue.input)})`,
    }),
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const url = URL.parse(raw);
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
        ctx.addIssue({
          code: 'custom',
          message: `must be an absolute http(s) URL such as https://rfckit.example.org (got ${shown(raw)})`,
        });
        return z.NEVER;
      }
      return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    }),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .superRefine((raw, ctx) => {
      if (raw === undefined) return;
      // never echo the value: it usually carries a password
      const url = URL.parse(raw);
      if (!url) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a postgres:// or postgresql:// URL (got something that is not a URL)',
        });
      } else if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
        ctx.addIssue({
          code: 'custom',
          message: `must be a postgres:// or postgresql:// URL (got a ${shown(url.protocol.replace(/:$/, ''))} URL)`,
        });
      }
    }),
  JWT_SECRET: z
    .string()
    .optional()
    .refine((raw) => raw === undefined || raw.length >= MIN_JWT_SECRET_LENGTH, {
      // the secret itself is never echoed
      error: (issue) =>
        `must be at least ${MIN_JWT_SECRET_LENGTH} characters (got ${String(issue.input).length}); unset it to have one generated into DATA_DIR`,
    }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      if (raw === undefined) return false;
      const value = raw.trim().toLowerCase();
      if (['true', 'yes', 'on'].includes(value)) return true;
      if (['false', 'no', 'off'].includes(value)) return false;
      // Fastify 5 trusts no one for a bare hop count (the peer cannot be checked), so refuse it rather than ignore it
      if (/^\d+$/.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be true, false or the proxies' addresses; a hop count is not supported (got ${shown(raw)})`,
        });
        return z.NEVER;
      }
      const entries = raw.split(',').map((entry) => entry.trim());
      if (entries.every(isAddressOrRange)) return entries;
      ctx.addIssue({
        code: 'custom',
        message: `must be true, false, or a comma-separated list of proxy IP addresses/CIDR ranges (got ${shown(raw)})`,
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z
    .enum(logLevels, {
      error: (issue) => `must be one of ${logLevels.join(', ')} (got ${shown(issue.input)})`,
    })
    .default('info'),
  WEB_DIST: z.string().optional(),
  NODE_ENV: z
    .enum(nodeEnvs, { error: (issue) => `must be one of ${nodeEnvs.join(', ')} (got ${shown(issue.input)})` })
    .default('production'),
});

type EnvKey = keyof typeof envSchema.shape;
const envKeys = Object.keys(envSchema.shape) as EnvKey[];

/**
 * Reads the JWT secret from `DATA_DIR/jwt-secret`, generating it (48 random bytes, base64url,
 * mode 0600) on the first start so that tokens survive restarts without any set-up.
 */
function loadOrCreateJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, JWT_SECRET_FILE);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      // `wx` fails when the file exists, so two processes starting together keep one secret
      writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < MIN_JWT_SECRET_LENGTH) {
      throw new ConfigError([
        `${file} must hold a secret of at least ${MIN_JWT_SECRET_LENGTH} characters: delete it to have a new one generated`,
      ]);
    }
    return secret;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError([`DATA_DIR must be a writable directory (${reason} on ${file})`]);
  }
}

/**
 * Validates the environment and resolves paths. Throws a ConfigError naming every bad
 * variable at once. Empty values count as unset, as in most `.env` files.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Partial<Record<EnvKey, string>> = {};
  for (const key of envKeys) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = envSchema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const parsed = result.data;
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl: parsed.PUBLIC_URL,
    dataDir,
    databaseUrl: parsed.DATABASE_URL,
    jwtSecret: parsed.JWT_SECRET ?? loadOrCreateJwtSecret(dataDir),
    jwtSecretSource: parsed.JWT_SECRET === undefined ? 'file' : 'env',
    trustProxy: parsed.TRUST_PROXY,
    logLevel: parsed.LOG_LEVEL,
    webDist: parsed.WEB_DIST === undefined ? DEFAULT_WEB_DIST : path.resolve(parsed.WEB_DIST),
    nodeEnv: parsed.NODE_ENV,
  };
}
