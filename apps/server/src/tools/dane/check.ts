// The DANE live check's I/O: MX, address and TLSA answers validated from the root with our own
// chain of trust, and the chain each server presents over the guarded probe layer. The verdict is
// the standards code's (evaluateDaneEndpoint, summariseDaneCheck).
import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import {
  buildChain,
  evaluateDaneEndpoint,
  parseTlsa,
  summariseDaneCheck,
  toHex,
  type DaneCheckProtocol,
  type DaneCheckResult,
  type DaneEndpoint,
  type DaneLookup,
  type DaneMxInput,
  type DaneTlsOutcome,
  type DnsRecordType,
  type DnssecChain,
  type PresentedCertificate,
  type SecurityStatus,
  type TrustAnchors,
} from '@rfckit/standards';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { NetError } from '../../net/errors.ts';
import type { NetSession } from '../../net/layer.ts';
import type { StarttlsProtocol } from '../../net/starttls.ts';
import { HttpError } from '../../plugins/errors.ts';
import { fetchPresentedChain } from '../../tls/presented-chain.ts';

/** RFC 7672 §2.2.1 leaves the count to the sender; ten MX hosts is far beyond what domains publish. */
export const MAX_MX_HOSTS = 10;

/**
 * Per protocol: the port it is checked on by default, the STARTTLS dialogue of its plain port, and
 * the ports where TLS starts at once (RFC 8314 for mail, RFC 4513 LDAPS, RFC 4217 FTPS, XEP-0368).
 */
const services: Record<
  DaneCheckProtocol,
  { port: number; starttls: StarttlsProtocol | null; implicitTls: readonly number[] }
> = {
  smtp: { port: 25, starttls: 'smtp', implicitTls: [465] },
  https: { port: 443, starttls: null, implicitTls: [] },
  imap: { port: 143, starttls: 'imap', implicitTls: [993] },
  pop3: { port: 110, starttls: 'pop3', implicitTls: [995] },
  xmpp: { port: 5269, starttls: 'xmpp', implicitTls: [5223, 5270] },
  ldap: { port: 389, starttls: 'ldap', implicitTls: [636] },
  ftp: { port: 21, starttls: 'ftp', implicitTls: [990] },
  postgres: { port: 5432, starttls: 'postgres', implicitTls: [] },
};

export function defaultPort(protocol: DaneCheckProtocol): number {
  return services[protocol].port;
}

export interface DaneCheckContext {
  net: NetSession;
  trustAnchors: TrustAnchors;
  signal: AbortSignal;
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The presentation lines of `type` in a chain's answer (its CNAMEs come first and are left out). */
function linesOf(chain: DnssecChain, type: string): string[] {
  return chain.answer.records.filter((line) => line.split(/\s+/)[3]?.toUpperCase() === type);
}

function lookupOf(chain: DnssecChain, type: string): DaneLookup {
  const denial = chain.answer.denial;
  return {
    name: bare(chain.name),
    owner: bare(chain.answer.owner),
    status: chain.status,
    records: linesOf(chain, type),
    failure: chain.failure === null ? null : chain.failure.message,
    answer: chain.answer.status,
    denial:
      denial === null ? null : { method: denial.method, proven: denial.proven, message: denial.message },
  };
}

/** A and AAAA as one lookup: records if either has some, else the absence (NXDOMAIN before NODATA), at the worse status. */
function addressLookup(a: DnssecChain, aaaa: DnssecChain): DaneLookup {
  const worse = rank[a.status] >= rank[aaaa.status] ? a : aaaa;
  const records = [...linesOf(a, 'A'), ...linesOf(aaaa, 'AAAA')];
  const answers = [a.answer.status, aaaa.answer.status];
  const answer =
    records.length > 0
      ? 'ok'
      : answers.includes('failed')
        ? 'failed'
        : answers.includes('nxdomain')
          ? 'nxdomain'
          : 'nodata';
  const absent = a.answer.status === answer ? a : aaaa;
  return {
    ...lookupOf(a, 'A'),
    status: worse.status,
    records,
    failure: worse.failure === null ? null : worse.failure.message,
    answer,
    denial: answer === 'ok' || answer === 'failed' ? null : lookupOf(absent, 'A').denial,
  };
}

const rank: Record<SecurityStatus, number> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 };

/** MX records of a chain's answer: `owner TTL IN MX preference exchange`. */
function mxHosts(lines: readonly string[]): { preference: number; host: string }[] {
  return lines
    .map((line) => line.split(/\s+/))
    .map((fields) => ({ preference: Number(fields[4]), host: bare(fields[5] ?? '') }))
    .filter((mx) => Number.isInteger(mx.preference))
    .sort((a, b) => a.preference - b.preference);
}

/** Subject alternative DNS names, or the CN where there are none (RFC 6125 §6.4.4). */
function dnsNamesOf(certificate: X509Certificate): string[] {
  const names = (certificate.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
  if (names.length > 0) return names;
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1];
  return cn === undefined ? [] : [cn];
}

/** The chain presented, each certificate with its names and which one of the chain signed it. */
function presented(pems: readonly string[]): PresentedCertificate[] {
  const certificates = pems.map((pem) => new X509Certificate(pem));
  return certificates.map((certificate, index) => {
    const issuer = certificates.findIndex(
      (candidate, at) =>
        at !== index && certificate.checkIssued(candidate) && certificate.verify(candidate.publicKey),
    );
    return { der: certificate.raw, names: dnsNamesOf(certificate), issuer: issuer < 0 ? null : issuer };
  });
}

/** The key of a DANE-TA record given in full: the SubjectPublicKeyInfo (2 1 0) or the certificate's key (2 0 0). */
function anchorKey(selector: number, data: Uint8Array): KeyObject | undefined {
  try {
    if (selector === 1) return createPublicKey({ key: Buffer.from(data), format: 'der', type: 'spki' });
    if (selector === 0) return new X509Certificate(Buffer.from(data)).publicKey;
  } catch {
    // data that is no key or certificate matches nothing; the record's own check says why
  }
  return undefined;
}

/**
 * The DANE-TA records given in full whose key signed the top certificate of the path the server
 * presented (RFC 7671 §5.2.2: such a trust anchor need not be sent), by their data in hex.
 */
function anchorsAboveChain(records: readonly string[], chain: readonly PresentedCertificate[]): string[] {
  const seen = new Set<number>();
  let top = chain.length > 0 ? 0 : null;
  while (top !== null && !seen.has(top) && chain[top]?.issuer != null) {
    seen.add(top);
    top = chain[top]!.issuer;
  }
  if (top === null) return [];
  const certificate = new X509Certificate(chain[top]!.der);
  return records.flatMap((line) => {
    const { record } = parseTlsa(line);
    if (record?.usage !== 2 || record.matchingType !== 0) return [];
    const key = anchorKey(record.selector, record.data);
    return key !== undefined && certificate.verify(key) ? [toHex(record.data)] : [];
  });
}

async function connect(
  context: DaneCheckContext,
  host: string,
  port: number,
  protocol: DaneCheckProtocol,
  records: readonly string[],
): Promise<DaneTlsOutcome> {
  const service = services[protocol];
  const starttls = service.starttls !== null && !service.implicitTls.includes(port) ? service.starttls : null;
  try {
    const fetched = await fetchPresentedChain(
      context.net,
      { host, port, starttls: starttls ?? 'none' },
      context.signal,
    );
    const certificates = presented(fetched.certificates.map((certificate) => certificate.pem));
    return {
      status: 'ok',
      starttls,
      certificates,
      pkixTrusted: fetched.trusted,
      anchorSigned: anchorsAboveChain(records, certificates),
    };
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (error instanceof HttpError || error instanceof NetError)
      return { status: 'failed', starttls, code: error.code, message: error.message };
    throw error;
  }
}

/** One server: its addresses, its TLSA records (RFC 7672 §2.2.2 order), its chain and the verdict. */
async function checkEndpoint(
  context: DaneCheckContext,
  chainOf: (name: string, type: DnsRecordType) => Promise<DnssecChain>,
  host: string,
  port: number,
  protocol: DaneCheckProtocol,
): Promise<DaneEndpoint> {
  const [a, aaaa] = await Promise.all([chainOf(host, 'A'), chainOf(host, 'AAAA')]);
  const addresses = addressLookup(a, aaaa);
  const reachable = addresses.status === 'secure' || addresses.status === 'insecure';
  // RFC 5321 §5.1, RFC 7672 §2.2.2: a host without an address cannot be reached: no TLSA, no connection
  if (reachable && addresses.records.length === 0)
    return evaluateDaneEndpoint(
      {
        protocol,
        host,
        port,
        referenceNames: [bare(host)],
        addresses,
        tlsa: null,
        tls: { status: 'not-attempted' },
        now: new Date(),
      },
      nodeCrypto,
    );
  // RFC 7672 §2.2.2, RFC 7671 §7: a host reached through a secure CNAME chain has its TLSA at the
  // expanded name first, then at the name as given
  const expanded = addresses.owner !== bare(host) ? addresses.owner : null;
  const owner = (name: string) => `_${port}._tcp.${name}`;
  const candidates =
    expanded !== null && addresses.status === 'secure'
      ? [owner(expanded), owner(bare(host))]
      : [owner(bare(host))];
  const tried: string[] = [];
  let tlsaChain: DnssecChain | undefined;
  for (const candidate of candidates) {
    tried.push(candidate);
    tlsaChain = await chainOf(candidate, 'TLSA');
    if (tlsaChain.answer.status !== 'nodata' && tlsaChain.answer.status !== 'nxdomain') break;
  }
  const tlsaLookup = lookupOf(tlsaChain!, 'TLSA');
  const found =
    tlsaChain!.answer.status === 'failed' ? 'failed' : tlsaLookup.records.length > 0 ? 'records' : 'none';
  const tls: DaneTlsOutcome =
    found === 'records' && reachable && (tlsaLookup.status === 'secure' || tlsaLookup.status === 'insecure')
      ? await connect(context, host, port, protocol, tlsaLookup.records)
      : { status: 'not-attempted' };
  return evaluateDaneEndpoint(
    {
      protocol,
      host,
      port,
      // RFC 7672 §3.2.2: the MX host name, and the name it expands to through CNAMEs
      referenceNames: expanded === null ? [bare(host)] : [bare(host), expanded],
      addresses,
      tlsa: { ...tlsaLookup, found, tried },
      tls,
      now: new Date(),
    },
    nodeCrypto,
  );
}

/** `POST /v1/dane/check`: never throws for DNS or a target's trouble; those are in the result. */
export async function checkDane(
  body: { host: string; port?: number | undefined; protocol: DaneCheckProtocol },
  context: DaneCheckContext,
): Promise<DaneCheckResult> {
  const port = body.port ?? defaultPort(body.protocol);
  const host = bare(body.host);
  const chainOf = (name: string, type: DnsRecordType) =>
    buildChain(name, type, {
      resolver: context.net.dns,
      crypto: nodeCrypto,
      trustAnchors: context.trustAnchors,
      signal: context.signal,
    });
  let mx: DaneMxInput | null = null;
  let hosts = [host];
  if (body.protocol === 'smtp') {
    const mxChain = await chainOf(host, 'MX');
    const lookup = lookupOf(mxChain, 'MX');
    const listed = mxHosts(lookup.records);
    const nullMx = listed.length === 1 && listed[0]?.host === '';
    const answered = lookup.status === 'secure' || lookup.status === 'insecure';
    // RFC 5321 §5.1: without MX records the domain itself is the mail host, if it has an address
    // (its endpoint finds out); a domain that does not exist has none
    const implicit = answered && mxChain.answer.status === 'nodata';
    mx = { lookup, hosts: nullMx ? [] : listed, implicit };
    hosts =
      !answered || nullMx || mxChain.answer.status === 'nxdomain'
        ? []
        : implicit
          ? [host]
          : [...new Set(listed.map((entry) => entry.host))];
  }
  const endpoints = await Promise.all(
    hosts
      .slice(0, MAX_MX_HOSTS)
      .map((endpointHost) => checkEndpoint(context, chainOf, endpointHost, port, body.protocol)),
  );
  return summariseDaneCheck({ host, port, protocol: body.protocol, mx, endpoints, now: new Date() });
}
