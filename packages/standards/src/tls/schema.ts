import { z } from 'zod';
import { tlsConfigServers } from './server-config.ts';

/** Longest accepted suite name: the longest IANA name has 50 characters. */
export const cipherSuiteMaxLength = 100;

/** Body of `POST /v1/tls-cipher/validate`, shared by the server route and the web form. */
export const tlsCipherValidateBody = z
  .object({
    cipherSuite: z
      .string()
      .trim()
      .min(1, 'Please enter a cipher suite to validate')
      .max(cipherSuiteMaxLength, `Cipher suite is too long: at most ${cipherSuiteMaxLength} characters`)
      .describe('An IANA, OpenSSL or GnuTLS suite name, or its code point: 0xC0,0x2F, c02f, 0xC02F'),
  })
  .strict();

const profileSchema = z.enum(['modern', 'intermediate', 'old']);
const versionSchema = z.enum(['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
const levelSchema = z.enum(['HIGH', 'MEDIUM', 'LOW', 'INSECURE']);

export const cipherSuiteSchema = z.object({
  code: z.number().int(),
  hex: z.string(),
  iana: z.string(),
  openssl: z.string().nullable(),
  gnutls: z.string().nullable(),
  keyExchange: z.string(),
  authentication: z.string(),
  cipher: z.string(),
  keyBits: z.number().int(),
  mac: z.string(),
  hash: z.string(),
  aead: z.boolean(),
  pfs: z.boolean(),
  export: z.boolean(),
  versions: z.array(versionSchema).readonly(),
  rating: z.enum(['recommended', 'secure', 'weak', 'insecure']),
  weaknesses: z
    .array(
      z.object({
        component: z.enum(['protocol', 'kex', 'auth', 'enc', 'hash']),
        name: z.string(),
        severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      }),
    )
    .readonly(),
  security: levelSchema,
  ianaRecommended: z.boolean(),
  dtlsOk: z.boolean(),
  reference: z.string(),
  mozilla: z.array(profileSchema).readonly(),
});

export const cipherValidationSchema = z.object({
  cipher: z.string(),
  known: z.boolean(),
  level: z.enum(['HIGH', 'MEDIUM', 'LOW', 'INSECURE', 'UNKNOWN']),
  isSecure: z.boolean(),
  isInsecure: z.boolean(),
  supportsPFS: z.boolean(),
  tlsVersion: z.string(),
  recommendations: z.array(z.string()).readonly(),
  advice: z
    .array(
      z.object({
        weakness: z.string(),
        severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
        advice: z.string(),
        reference: z.string(),
      }),
    )
    .readonly(),
  suite: cipherSuiteSchema.nullable(),
});

/** Query of `GET /v1/tls-cipher/recommendations`. */
export const tlsRecommendationsQuery = z
  .object({
    profile: profileSchema.default('intermediate').describe('Mozilla profile: modern, intermediate or old'),
    server: z
      .enum(tlsConfigServers)
      .default('nginx')
      .describe('nginx, apache, haproxy, caddy, postfix or node'),
  })
  .strict();

export const tlsServerConfigSchema = z.object({
  profile: profileSchema,
  server: z.enum(tlsConfigServers),
  serverName: z.string(),
  guidelinesVersion: z.string(),
  fileName: z.string(),
  protocols: z.array(versionSchema).readonly(),
  ciphers: z.array(z.string()).readonly(),
  ciphersuites: z.array(z.string()).readonly(),
  curves: z.array(z.string()).readonly(),
  dhParams: z.string(),
  hsts: z.string().nullable(),
  ocspStapling: z.string(),
  serverPreferredOrder: z.boolean(),
  oldestClients: z.array(z.string()).readonly(),
  notes: z.array(z.string()).readonly(),
  config: z.string(),
});
