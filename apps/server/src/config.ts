import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import {
  DEFAULT_DENIED_COUNTRIES,
  ianaRootTrustAnchors,
  parseTrustAnchors,
  type TrustAnchors,
} from '@rfckit/standards';
import { z } from 'zod';
import { parseCidrList } from './net/address.ts';
import { parseConnectTo, type ConnectToRule } from './net/connect-to.ts';
import { parseDnsServer } from './net/dns.ts';

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
  /** Base of the links in mail: PUBLIC_URL, else `http://localhost:PORT`. No trailing slash. */
  appUrl: string;
  dataDir: string;
  /** A `postgres://` URL switches the database from the SQLite file in `dataDir` to PostgreSQL. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  jwtSecretSource: 'env' | 'file';
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  webDist: string;
  nodeEnv: NodeEnv;
  /** ISO 3166-1 alpha-2 codes answered 451 everywhere but `/cdn-cgi/trace`; empty allows every country. */
  deniedCountries: readonly string[];
  /** Absolute path of a MaxMind-format (.mmdb) country or city database; without it only GEO_HEADER locates clients. */
  geoipDb: string | undefined;
  /** Lower-case header a trusted proxy puts the client's country in (Cloudflare's `cf-ipcountry`). */
  geoHeader: string;
  /** A `redis://` or `rediss://` URL: rate-limit counters shared by every process instead of kept in memory. */
  redisUrl: string | undefined;
  /** Multiplies every rate limit (2 doubles them), for trusted load tests and batch automation. */
  rateLimitScale: number;
  /** `smtp://` or `smtps://` URL of the mail relay; undefined writes mail to the log and `DATA_DIR/outbox`. */
  smtpUrl: string | undefined;
  /** The From of every message, e.g. `rfckit <no-reply@rfckit.example.org>`. */
  mailFrom: string;
  /** The seller block of invoices: the name, then address lines (INVOICE_SELLER, `|` between lines). */
  invoiceSeller: readonly string[];
  /** DNS_SERVERS as `address:port` / `[v6]:port`; undefined asks the system's resolvers (`/etc/resolv.conf`). */
  dnsServers: readonly string[] | undefined;
  /** OUTBOUND_ALLOW: CIDR ranges the outbound layer may reach although they are private, loopback … */
  outboundAllow: readonly string[];
  /** OUTBOUND_CONNECT_TO: curl-style host:port → address:port rewrites, for tests against the lab. */
  outboundConnectTo: readonly ConnectToRule[];
  /** OUTBOUND_CA_FILE: PEM certificates trusted for outbound TLS besides Node's store, for tests. */
  outboundCaFile: string | undefined;
  /** HSTS_PRELOAD_FILE: Chromium's `transport_security_state_static.json`, for the headers Analyser. */
  hstsPreloadFile: string | undefined;
  /** OUTBOUND_TIMEOUT_MS: the most one outbound fetch may take (every lookup, hop and the body). */
  outboundTimeoutMs: number;
  /** The root's DS or DNSKEY records DNSSEC chains start from: DNSSEC_TRUST_ANCHORS's file, else IANA's. */
  dnssecTrustAnchors: TrustAnchors;
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

export const DEFAULT_GEO_HEADER = 'cf-ipcountry';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
// codes CLDR names that no proxy or GeoIP database reports as a client's country
const notCountries: Record<string, string> = {
  UK: 'is not ISO 3166-1: use GB for the United Kingdom',
  EU: 'is a union, not a country',
  EZ: 'is a union, not a country',
  UN: 'is not a country',
  QO: 'is not a country',
  ZZ: 'is not a country',
};

/** Why `code` (already upper-case) is not a usable ISO 3166-1 alpha-2 country code, or undefined. */
function countryCodeProblem(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return 'is not two letters';
  const reason = notCountries[code];
  if (reason !== undefined) return reason;
  if (regionNames.of(code) === undefined) return 'is not an ISO 3166-1 alpha-2 country code';
  return undefined;
}

// "\xAB\xCD\xEFMaxMind.com" starts the metadata section, within the last 128 KiB of a MaxMind DB file
const MMDB_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
const MMDB_METADATA_MAX = 128 * 1024;

/** Why the file at `file` cannot serve as GEOIP_DB, or undefined: readable, a regular file, with MaxMind metadata. */
function geoipDbProblem(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const stats = fstatSync(fd);
    if (!stats.isFile()) return `must be a MaxMind .mmdb file, not a directory or device (${file})`;
    const length = Math.min(stats.size, MMDB_METADATA_MAX);
    const tail = Buffer.alloc(length);
    readSync(fd, tail, 0, length, stats.size - length);
    if (tail.lastIndexOf(MMDB_MARKER) === -1)
      return `is not a MaxMind DB (.mmdb) file: no metadata marker in ${file}`;
    return undefined;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `must be a readable MaxMind .mmdb file (${reason} on ${file})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

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
  // empty (kept empty by loadConfig) or `none` denies no country
  DENIED_COUNTRIES: z
    .string()
    .optional()
    .transform((raw, ctx): readonly string[] => {
      if (raw === undefined) return DEFAULT_DENIED_COUNTRIES;
      if (raw.trim() === '' || raw.trim().toLowerCase() === 'none') return [];
      const codes = raw.split(',').map((entry) => entry.trim().toUpperCase());
      const problems = codes.flatMap((code) => {
        const problem = countryCodeProblem(code);
        return problem === undefined ? [] : [`${shown(code)} ${problem}`];
      });
      if (problems.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of ISO 3166-1 alpha-2 country codes such as RU,KP, or empty for none: ${problems.join('; ')}`,
        });
        return z.NEVER;
      }
      return [...new Set(codes)];
    }),
  GEOIP_DB: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const file = path.resolve(raw);
      const problem = geoipDbProblem(file);
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return file;
    }),
  GEO_HEADER: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, {
      error: (issue) => `must be an HTTP header name such as cf-ipcountry (got ${shown(issue.input)})`,
    })
    .transform((raw) => raw.toLowerCase())
    .default(DEFAULT_GEO_HEADER),
  REDIS_URL: z
    .string()
    .optional()
    .superRefine((raw, ctx) => {
      if (raw === undefined) return;
      // never echo the value: it may carry a password
      const url = URL.parse(raw);
      if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
        ctx.addIssue({
          code: 'custom',
          message:
            url && url.protocol !== 'redis:' && url.protocol !== 'rediss:'
              ? `must be a redis:// or rediss:// URL (got a ${shown(url.protocol.replace(/:$/, ''))} URL)`
              : 'must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379',
        });
      }
    }),
  RATE_LIMIT_SCALE: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 1;
      const scale = /^\d*\.?\d+(e[+-]?\d+)?$/i.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isFinite(scale) || scale <= 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a positive number that multiplies every rate limit, such as 1 or 10 (got ${shown(raw)})`,
        });
        return z.NEVER;
      }
      return scale;
    }),
  SMTP_URL: z
    .string()
    .optional()
    .superRefine((raw, ctx) => {
      if (raw === undefined) return;
      // never echo the value: it usually carries a password
      const url = URL.parse(raw);
      if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
        ctx.addIssue({
          code: 'custom',
          message: 'must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.org:465',
        });
      }
    }),
  MAIL_FROM: z
    .string()
    .max(320, { error: 'must be at most 320 characters' })
    .refine((raw) => !/[\r\n]/.test(raw) && /@[^@\s>]+>?$/.test(raw), {
      error: (issue) =>
        `must be an address such as rfckit <no-reply@rfckit.example.org> (got ${shown(issue.input)})`,
    })
    .optional(),
  INVOICE_SELLER: z
    .string()
    .max(1000, { error: 'must be at most 1000 characters' })
    // eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
    .refine((raw) => !/[\u0000-\u001f\u007f]/.test(raw), { error: 'must be one line: separate lines with |' })
    .optional()
    .transform((raw): readonly string[] =>
      (raw ?? 'rfckit')
        .split('|')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((raw, ctx): readonly string[] | undefined => {
      if (raw === undefined) return undefined;
      const entries = raw.split(',').map((entry) => entry.trim());
      const servers = entries.map(parseDnsServer);
      const bad = entries.filter((_, i) => servers[i] === undefined);
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of resolver IP addresses with optional ports, such as 127.0.0.1:5353,[::1]:53 (got ${bad.map(shown).join(', ')})`,
        });
        return z.NEVER;
      }
      return servers.map((server) => server!.label);
    }),
  OUTBOUND_ALLOW: z
    .string()
    .optional()
    .transform((raw, ctx): readonly string[] => {
      if (raw === undefined) return [];
      try {
        return parseCidrList(raw).map(([base, bits]) => `${base.toString()}/${bits}`);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of CIDR ranges: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    }),
  OUTBOUND_CONNECT_TO: z
    .string()
    .optional()
    .transform((raw, ctx): readonly ConnectToRule[] => {
      if (raw === undefined) return [];
      try {
        return parseConnectTo(raw);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    }),
  OUTBOUND_CA_FILE: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const file = path.resolve(raw);
      try {
        if (!readFileSync(file, 'utf8').includes('-----BEGIN CERTIFICATE-----')) {
          ctx.addIssue({
            code: 'custom',
            message: `must be a PEM file of CA certificates (none in ${file})`,
          });
          return z.NEVER;
        }
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        ctx.addIssue({ code: 'custom', message: `must be a readable PEM file (${reason} on ${file})` });
        return z.NEVER;
      }
      return file;
    }),
  HSTS_PRELOAD_FILE: z
    .string()
    .optional()
    .transform((raw) => (raw === undefined ? undefined : path.resolve(raw))),
  OUTBOUND_TIMEOUT_MS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 30_000;
      const ms = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!(ms >= 100 && ms <= 300_000)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a number of milliseconds from 100 to 300000 (got ${shown(raw)})`,
        });
        return z.NEVER;
      }
      return ms;
    }),
  DNSSEC_TRUST_ANCHORS: z
    .string()
    .optional()
    .transform((raw, ctx): TrustAnchors => {
      if (raw === undefined) return ianaRootTrustAnchors;
      const file = path.resolve(raw);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        ctx.addIssue({
          code: 'custom',
          message: `must be a readable file of DS or DNSKEY records for the root (${reason} on ${file})`,
        });
        return z.NEVER;
      }
      // the source is shown with every chain: the file's name, not where the server keeps it
      const anchors = parseTrustAnchors(text, `DNSSEC_TRUST_ANCHORS (${path.basename(file)})`);
      if (!anchors.ok) {
        ctx.addIssue({ code: 'custom', message: `${file}: ${anchors.error}` });
        return z.NEVER;
      }
      return anchors.result;
    }),
});

type EnvKey = keyof typeof envSchema.shape;
const envKeys = Object.keys(envSchema.shape) as EnvKey[];
/** Variables where an empty value means something (no denied country) instead of "unset". */
const keptEmpty = new Set<EnvKey>(['DENIED_COUNTRIES']);

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
 * variable at once. Empty values count as unset, as in most `.env` files (DENIED_COUNTRIES
 * excepted: empty there denies no country).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Partial<Record<EnvKey, string>> = {};
  for (const key of envKeys) {
    const value = env[key];
    if (value !== undefined && (value.trim() !== '' || keptEmpty.has(key))) input[key] = value.trim();
  }
  const result = envSchema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const parsed = result.data;
  const dataDir = path.resolve(parsed.DATA_DIR);
  const appUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl: parsed.PUBLIC_URL,
    appUrl,
    dataDir,
    databaseUrl: parsed.DATABASE_URL,
    jwtSecret: parsed.JWT_SECRET ?? loadOrCreateJwtSecret(dataDir),
    jwtSecretSource: parsed.JWT_SECRET === undefined ? 'file' : 'env',
    trustProxy: parsed.TRUST_PROXY,
    logLevel: parsed.LOG_LEVEL,
    webDist: parsed.WEB_DIST === undefined ? DEFAULT_WEB_DIST : path.resolve(parsed.WEB_DIST),
    nodeEnv: parsed.NODE_ENV,
    deniedCountries: parsed.DENIED_COUNTRIES,
    geoipDb: parsed.GEOIP_DB,
    geoHeader: parsed.GEO_HEADER,
    redisUrl: parsed.REDIS_URL,
    rateLimitScale: parsed.RATE_LIMIT_SCALE,
    smtpUrl: parsed.SMTP_URL,
    mailFrom: parsed.MAIL_FROM ?? `rfckit <no-reply@${new URL(appUrl).hostname}>`,
    invoiceSeller: parsed.INVOICE_SELLER.length > 0 ? parsed.INVOICE_SELLER : ['rfckit'],
    dnsServers: parsed.DNS_SERVERS,
    outboundAllow: parsed.OUTBOUND_ALLOW,
    outboundConnectTo: parsed.OUTBOUND_CONNECT_TO,
    outboundCaFile: parsed.OUTBOUND_CA_FILE,
    hstsPreloadFile: parsed.HSTS_PRELOAD_FILE,
    outboundTimeoutMs: parsed.OUTBOUND_TIMEOUT_MS,
    dnssecTrustAnchors: parsed.DNSSEC_TRUST_ANCHORS,
  };
}
