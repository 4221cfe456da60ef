import { KeyObject, X509Certificate as NodeX509Certificate, sign, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API first
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// @peculiar/x509 takes a WebCrypto implementation per call; Node's is complete and needs no polyfill
const crypto = webcrypto;
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export type KeyType = 'ec-p256' | 'rsa-2048' | 'rsa-1024' | 'rsa-512';

export interface IssueOptions {
  /**
   * DNS names and IP addresses for the subjectAltName; the first is also the subject's CN. Empty
   * with `commonName` for a certificate whose name is in its subject only.
   */
  names: readonly string[];
  /** SRVName otherNames (RFC 4985), e.g. `_imaps.example.test`, added to the subjectAltName. */
  srvNames?: readonly string[];
  /** The subject CN; default the first name. */
  commonName?: string;
  /** Default: one day ago (so clock skew between tests and code under test never matters). */
  notBefore?: Date;
  /** Default: 90 days from now. */
  notAfter?: Date;
  /** Signed by its own key instead of the lab CA. */
  selfSigned?: boolean;
  /** Default `ec-p256` (fast to generate). */
  keyType?: KeyType;
  /** Signs with md5WithRSAEncryption (RFC 3279 §2.2.1) instead of SHA-256; needs an RSA CA. */
  md5Signature?: boolean;
  /** Where the issuer's certificate can be fetched (Authority Information Access caIssuers, RFC 5280 §4.2.2.1). */
  caIssuersUrl?: string;
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
  /** An intermediate CA under this one; its leaves' chain is leaf, intermediate, root. */
  intermediate(options: {
    name: string;
    /** Marked cA=FALSE (RFC 5280 §4.2.1.9) though it signs: a chain through it must not verify. */
    notCa?: boolean;
  }): Promise<TestCa>;
}

export interface TestCaOptions {
  name?: string;
  /** The CA's own key. Default `ec-p256`; RSA for leaves signed with RSA (md5Signature). */
  keyType?: 'ec-p256' | 'rsa-2048';
}

const DAY = 86_400_000;

function algorithmOf(keyType: KeyType): webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams {
  return keyType !== 'ec-p256'
    ? {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
        publicExponent: new Uint8Array([1, 0, 1]),
        modulusLength: { 'rsa-2048': 2048, 'rsa-1024': 1024, 'rsa-512': 512 }[keyType],
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

function derOf(tag: number, content: Buffer): Buffer {
  const length =
    content.length < 0x80
      ? Buffer.from([content.length])
      : content.length < 0x100
        ? Buffer.from([0x81, content.length])
        : Buffer.from([0x82, content.length >> 8, content.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

// id-on-dnsSRV 1.3.6.1.5.5.7.8.7 (RFC 4985 §2)
const SRV_NAME_OID = Buffer.from([0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x08, 0x07]);

/**
 * subjectAltName with DNS names, IPv4 addresses and SRVName otherNames, encoded here because the
 * library writes only the otherName types it knows (RFC 5280 §4.2.1.6, RFC 4985 §2).
 */
function sanWithSrvNames(names: readonly string[], srvNames: readonly string[]): x509.Extension {
  const entries = [
    ...names.map((name) => {
      if (isIP(name) === 6) throw new Error('IPv6 addresses beside SRV names are not supported');
      return isIP(name) === 4
        ? derOf(0x87, Buffer.from(name.split('.').map(Number)))
        : derOf(0x82, Buffer.from(name, 'ascii'));
    }),
    ...srvNames.map((name) =>
      derOf(
        0xa0,
        Buffer.concat([derOf(0x06, SRV_NAME_OID), derOf(0xa0, derOf(0x16, Buffer.from(name, 'ascii')))]),
      ),
    ),
  ];
  return new x509.Extension('2.5.29.17', false, derOf(0x30, Buffer.concat(entries)));
}

function sanOf(names: readonly string[], srvNames: readonly string[] = []): x509.Extension[] {
  if (srvNames.length > 0) return [sanWithSrvNames(names, srvNames)];
  if (names.length === 0) return [];
  return [
    new x509.SubjectAlternativeNameExtension(
      names.map((name) => ({ type: isIP(name) === 0 ? 'dns' : 'ip', value: name })),
    ),
  ];
}

async function leafExtensions(
  keys: CryptoKeyPair,
  names: readonly string[],
  srvNames?: readonly string[],
): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ...sanOf(names, srvNames),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
  ];
}

function fingerprintOf(pem: string): string {
  return new NodeX509Certificate(pem).fingerprint256;
}

// sha256WithRSAEncryption and md5WithRSAEncryption (1.2.840.113549.1.1.11 and .4): same length
const SHA256_WITH_RSA = Buffer.from('06092a864886f70d01010b', 'hex');
const MD5_WITH_RSA = Buffer.from('06092a864886f70d010104', 'hex');

/** Where the DER element at `at` ends. */
function derEnd(der: Buffer, at: number): number {
  const first = der[at + 1] ?? 0;
  if (first < 0x80) return at + 2 + first;
  const count = first & 0x7f;
  return at + 2 + count + der.readUIntBE(at + 2, count);
}

/**
 * Re-signs a sha256WithRSAEncryption certificate with MD5: WebCrypto has no MD5, so both
 * AlgorithmIdentifiers are swapped in place (same length) and the TBSCertificate signed again.
 */
function resignWithMd5(der: ArrayBuffer, signingKey: CryptoKey): string {
  const bytes = Buffer.from(der);
  for (let at = bytes.indexOf(SHA256_WITH_RSA); at >= 0; at = bytes.indexOf(SHA256_WITH_RSA, at))
    MD5_WITH_RSA.copy(bytes, at);
  const tbsStart = (bytes[1] ?? 0) < 0x80 ? 2 : 2 + ((bytes[1] ?? 0) & 0x7f);
  const tbs = bytes.subarray(tbsStart, derEnd(bytes, tbsStart));
  const signature = sign('md5', tbs, KeyObject.from(signingKey));
  // the signature BIT STRING closes the certificate and keeps its length (the modulus size)
  signature.copy(bytes, bytes.length - signature.length);
  return x509.PemConverter.encode(bytes, 'CERTIFICATE');
}

interface Authority {
  subject: string;
  keys: CryptoKeyPair;
  keyType: 'ec-p256' | 'rsa-2048';
  cert: string;
  /** The CA certificates above a leaf, as a server sends them (PEM, this CA first). */
  chain: string;
}

async function caExtensions(keys: CryptoKeyPair, pathLength: number): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
  ];
}

/**
 * Generates a root CA at run time (ECDSA P-256, valid from yesterday for ten years) that
 * issues leaf certificates for lab servers. Nothing is written to disk.
 */
export async function createTestCa(options: TestCaOptions = {}): Promise<TestCa> {
  const subject = commonName(options.name ?? 'rfckit test lab root CA');
  const keyType = options.keyType ?? 'ec-p256';
  const keys = await generateKeys(keyType);
  const now = Date.now();
  const root = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: subject,
      notBefore: new Date(now - DAY),
      notAfter: new Date(now + 3650 * DAY),
      keys,
      signingAlgorithm: signingAlgorithmOf(keyType),
      extensions: await caExtensions(keys, 1),
    },
    crypto,
  );
  const rootPem = root.toString('pem');
  return authorityOf({ subject, keys, keyType, cert: `${rootPem}\n`, chain: `${rootPem}\n` });
}

async function authorityOf(authority: Authority): Promise<TestCa> {
  const { subject, keys } = authority;
  const authorityKeyId = await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey, false, crypto);
  return {
    cert: authority.cert,
    key: await privateKeyPem(keys.privateKey),
    subject,
    async issue(issue: IssueOptions): Promise<IssuedCertificate> {
      const first = issue.commonName ?? issue.names[0];
      if (first === undefined) throw new Error('issue() needs at least one name or a commonName');
      const keyType = issue.keyType ?? 'ec-p256';
      if (issue.md5Signature && (issue.selfSigned ? keyType : authority.keyType) === 'ec-p256')
        throw new Error('an MD5 signature needs an RSA signer: createTestCa({ keyType: "rsa-2048" })');
      const leafKeys = await generateKeys(keyType);
      const notBefore = issue.notBefore ?? new Date(Date.now() - DAY);
      const notAfter = issue.notAfter ?? new Date(Date.now() + 90 * DAY);
      const extensions = [
        ...(await leafExtensions(leafKeys, issue.names, issue.srvNames)),
        ...(issue.caIssuersUrl === undefined
          ? []
          : [
              new x509.AuthorityInfoAccessExtension({
                caIssuers: new x509.GeneralName('url', issue.caIssuersUrl),
              }),
            ]),
      ];
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
              signingAlgorithm: signingAlgorithmOf(authority.keyType),
              extensions: [...extensions, authorityKeyId],
            },
            crypto,
          );
      const certPem = issue.md5Signature
        ? `${resignWithMd5(cert.rawData, issue.selfSigned ? leafKeys.privateKey : keys.privateKey)}\n`
        : `${cert.toString('pem')}\n`;
      return {
        cert: certPem,
        key: await privateKeyPem(leafKeys.privateKey),
        chain: issue.selfSigned ? certPem : `${certPem}${authority.chain}`,
        fingerprint256: fingerprintOf(certPem),
        names: [...issue.names],
        notBefore,
        notAfter,
      };
    },
    async intermediate({ name, notCa = false }: { name: string; notCa?: boolean }): Promise<TestCa> {
      const intermediateKeys = await generateKeys(authority.keyType);
      const now = Date.now();
      const cert = await x509.X509CertificateGenerator.create(
        {
          subject: commonName(name),
          issuer: subject,
          notBefore: new Date(now - DAY),
          notAfter: new Date(now + 1825 * DAY),
          publicKey: intermediateKeys.publicKey,
          signingKey: keys.privateKey,
          signingAlgorithm: signingAlgorithmOf(authority.keyType),
          extensions: [
            ...(notCa
              ? [
                  new x509.BasicConstraintsExtension(false, undefined, true),
                  new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
                  await x509.SubjectKeyIdentifierExtension.create(intermediateKeys.publicKey, false, crypto),
                ]
              : await caExtensions(intermediateKeys, 0)),
            authorityKeyId,
          ],
        },
        crypto,
      );
      const pem = `${cert.toString('pem')}\n`;
      return authorityOf({
        subject: commonName(name),
        keys: intermediateKeys,
        keyType: authority.keyType,
        cert: pem,
        chain: `${pem}${authority.chain}`,
      });
    },
  };
}
