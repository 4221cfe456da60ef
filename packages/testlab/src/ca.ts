import { X509Certificate as NodeX509Certificate, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API first
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// @peculiar/x509 takes a WebCrypto implementation per call; Node's is complete and needs no polyfill
const crypto = webcrypto;
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export type KeyType = 'ec-p256' | 'rsa-2048' | 'rsa-1024';

export interface IssueOptions {
  /** DNS names and IP addresses for the subjectAltName; the first is also the subject's CN. */
  names: readonly string[];
  /** Default: one day ago (so clock skew between tests and code under test never matters). */
  notBefore?: Date;
  /** Default: 90 days from now. */
  notAfter?: Date;
  /** Signed by its own key instead of the lab CA. */
  selfSigned?: boolean;
  /** Default `ec-p256` (fast to generate). */
  keyType?: KeyType;
}

/** A certificate and its key, as PEM text that `node:tls` and `node:https` take as they are. */
export interface IssuedCertificate {
  /** The leaf certificate (PEM). */
  cert: string;
  /** The leaf's private key (PKCS#8 PEM). */
  key: string;
  /** Leaf then issuer (PEM), what a server sends; the self-signed leaf alone when self-signed. */
  chain: string;
  /** SHA-256 fingerprint as Node prints it (`AB:CD:…`). */
  fingerprint256: string;
  names: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

export interface TestCa {
  /** The root certificate (PEM): the trust anchor to give the code under test. */
  readonly cert: string;
  /** The root's private key (PKCS#8 PEM). */
  readonly key: string;
  readonly subject: string;
  issue(options: IssueOptions): Promise<IssuedCertificate>;
}

const DAY = 86_400_000;

function algorithmOf(keyType: KeyType): webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams {
  return keyType !== 'ec-p256'
    ? {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
        publicExponent: new Uint8Array([1, 0, 1]),
        modulusLength: keyType === 'rsa-1024' ? 1024 : 2048,
      }
    : { name: 'ECDSA', namedCurve: 'P-256' };
}

function signingAlgorithmOf(keyType: KeyType): webcrypto.Algorithm | webcrypto.EcdsaParams {
  return keyType !== 'ec-p256' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
}

async function generateKeys(keyType: KeyType): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(algorithmOf(keyType), true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** DN attribute values may not carry `,`, `=` or `+` unescaped; our names never need them. */
function commonName(name: string): string {
  return `CN=${name.replace(/[,=+"\\<>;]/g, '_')}`;
}

function sanOf(names: readonly string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    names.map((name) => ({ type: isIP(name) === 0 ? 'dns' : 'ip', value: name })),
  );
}

async function leafExtensions(keys: CryptoKeyPair, names: readonly string[]): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    sanOf(names),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
  ];
}

function fingerprintOf(pem: string): string {
  return new NodeX509Certificate(pem).fingerprint256;
}

/**
 * Generates a root CA at run time (ECDSA P-256, valid from yesterday for ten years) that
 * issues leaf certificates for lab servers. Nothing is written to disk.
 */
export async function createTestCa(options: { name?: string } = {}): Promise<TestCa> {
  const subject = commonName(options.name ?? 'rfckit test lab root CA');
  const keys = await generateKeys('ec-p256');
  const now = Date.now();
  const root = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: subject,
      notBefore: new Date(now - DAY),
      notAfter: new Date(now + 3650 * DAY),
      keys,
      signingAlgorithm: signingAlgorithmOf('ec-p256'),
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const rootPem = root.toString('pem');
  const rootKeyPem = await privateKeyPem(keys.privateKey);
  const authorityKeyId = await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey, false, crypto);

  return {
    cert: `${rootPem}\n`,
    key: rootKeyPem,
    subject,
    async issue(issue: IssueOptions): Promise<IssuedCertificate> {
      const [first] = issue.names;
      if (first === undefined) throw new Error('issue() needs at least one name');
      const keyType = issue.keyType ?? 'ec-p256';
      const leafKeys = await generateKeys(keyType);
      const notBefore = issue.notBefore ?? new Date(Date.now() - DAY);
      const notAfter = issue.notAfter ?? new Date(Date.now() + 90 * DAY);
      const extensions = await leafExtensions(leafKeys, issue.names);
      const cert = issue.selfSigned
        ? await x509.X509CertificateGenerator.createSelfSigned(
            {
              name: commonName(first),
              notBefore,
              notAfter,
              keys: leafKeys,
              signingAlgorithm: signingAlgorithmOf(keyType),
              extensions,
            },
            crypto,
          )
        : await x509.X509CertificateGenerator.create(
            {
              subject: commonName(first),
              issuer: subject,
              notBefore,
              notAfter,
              publicKey: leafKeys.publicKey,
              signingKey: keys.privateKey,
              signingAlgorithm: signingAlgorithmOf('ec-p256'),
              extensions: [...extensions, authorityKeyId],
            },
            crypto,
          );
      const certPem = `${cert.toString('pem')}\n`;
      return {
        cert: certPem,
        key: await privateKeyPem(leafKeys.privateKey),
        chain: issue.selfSigned ? certPem : `${certPem}${rootPem}\n`,
        fingerprint256: fingerprintOf(certPem),
        names: [...issue.names],
        notBefore,
        notAfter,
      };
    },
  };
}
