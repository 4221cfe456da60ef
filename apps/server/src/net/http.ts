import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls, { type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { isCouldNotCheckCode } from '@rfckit/standards';
import { Client, type buildConnector } from 'undici';
import { parseUrlHost, type AddressPolicy } from './address.ts';
import type { ConnectToRule } from './connect-to.ts';
import { NetError, type NetErrorCode } from './errors.ts';
import {
  RETRY_NEXT_ADDRESS,
  checkedTarget,
  connectFailure,
  type AddressResolver,
  type CheckedTarget,
} from './target.ts';

export interface HttpLimits {
  /** Redirects followed before giving up with TOO_MANY_REDIRECTS. */
  maxRedirects: number;
  /** Bytes of body read before giving up with BODY_TOO_LARGE. */
  maxBodyBytes: number;
  /** TCP connect plus TLS handshake, per hop. */
  connectTimeoutMs: number;
  /** From sending the request to the end of the response headers, per hop. */
  firstByteTimeoutMs: number;
  /** The whole fetch: every lookup, hop and the body. */
  totalTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  maxRedirects: 10,
  maxBodyBytes: 10 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  firstByteTimeoutMs: 15_000,
  totalTimeoutMs: 30_000,
};

export interface HttpClientOptions {
  resolver: AddressResolver;
  policy: AddressPolicy;
  /** OUTBOUND_CONNECT_TO rules (tests only). */
  connectTo?: readonly ConnectToRule[];
  /** Trust anchors (PEM) added to Node's default store (tests only: the lab CA). */
  extraCa?: readonly string[];
  userAgent: string;
  limits?: Partial<HttpLimits>;
}

/**
 * `fail` (default): an https hop whose certificate does not verify ends the fetch with
 * TLS_CERTIFICATE_INVALID (the error's details carry the TLS report). `report`: the fetch
 * goes on and each hop's `tls` says what is wrong, for analysers that grade it.
 */
export type CertificateErrorMode = 'fail' | 'report';

/** OPTIONS is for CORS preflights (with the caller's Origin and Access-Control-Request-Method). */
export type FetchMethod = 'GET' | 'HEAD' | 'OPTIONS';

export interface FetchOptions {
  method?: FetchMethod;
  /** Extra request headers (User-Agent, Host and Accept-Encoding are the client's). */
  headers?: Readonly<Record<string, string>>;
  limits?: Partial<HttpLimits>;
  certificateErrors?: CertificateErrorMode;
  /** false: return the first response even when it is a redirect. */
  followRedirects?: boolean;
  signal?: AbortSignal;
}

export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** `DNS:www.example.org`, `IP Address:192.0.2.1` … as Node prints them. */
  subjectAltNames: string[];
  validFrom: string;
  validTo: string;
  serialNumber: string;
  fingerprint256: string;
  selfSigned: boolean;
  publicKey: { type: string | undefined; bits?: number; curve?: string };
  pem: string;
}

export type CertificateProblem =
  'expired' | 'not-yet-valid' | 'wrong-name' | 'self-signed' | 'untrusted' | 'other';

export interface TlsReport {
  /** `TLSv1.3` … */
  protocol: string | null;
  cipher: { name: string; standardName: string; version: string };
  alpnProtocol: string | null;
  /** The SNI name sent; undefined for an IP address URL. */
  servername: string | undefined;
  /** The chain verified against the trust store and the name matched. */
  verified: boolean;
  /** Set when not verified. */
  verificationError?: { code: string; problem: CertificateProblem; message: string };
  /** The leaf certificate covers the name (checked even when the chain failed for another reason). */
  hostnameMatches: boolean;
  /** As the server sent them, leaf first. */
  certificates: CertificateInfo[];
}

export interface HopTiming {
  /** Name resolution (0 for an address or connect-to rule). */
  dnsMs: number;
  /** TCP connect plus TLS handshake. */
  connectMs: number;
  /** Request sent to response headers received. */
  firstByteMs: number;
  totalMs: number;
}

export interface RedirectHop {
  url: string;
  status: number;
  location: string;
  /** The redirect's own header lines in order (its Set-Cookie lines reach a browser's jar too). */
  headers: [string, string][];
  /** The address connected to (after any connect-to rule), and its port. */
  address: string;
  port: number;
  tls?: TlsReport;
  timing: HopTiming;
}

export interface FetchResult {
  /** The URL of the response returned (after redirects). */
  url: string;
  status: number;
  statusText: string;
  /** Every header line in order, original case, Set-Cookie lines kept apart. */
  headers: [string, string][];
  body: Buffer;
  address: string;
  port: number;
  tls?: TlsReport;
  /** Each redirect followed, in order (empty when the first answer was final). */
  redirects: RedirectHop[];
  timing: HopTiming & { overallMs: number };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The first value of a header (case-insensitive) in a raw header list. */
export function headerValue(
  headers: readonly (readonly [string, string])[],
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** Every value of a header (case-insensitive), in order: `Set-Cookie` lines one by one. */
export function headerValues(headers: readonly (readonly [string, string])[], name: string): string[] {
  const wanted = name.toLowerCase();
  return headers.filter(([key]) => key.toLowerCase() === wanted).map(([, value]) => value);
}

/** The body as text, decoded with the Content-Type charset when Node knows it, else UTF-8. */
export function bodyText(result: Pick<FetchResult, 'headers' | 'body'>): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(
    headerValue(result.headers, 'content-type') ?? '',
  )?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(result.body);
  } catch {
    return new TextDecoder('utf-8').decode(result.body);
  }
}

// OpenSSL verify codes (as Node reports them) in words a user can act on
const certificateProblems: Record<string, [CertificateProblem, string]> = {
  CERT_HAS_EXPIRED: ['expired', 'the certificate has expired'],
  CERT_NOT_YET_VALID: ['not-yet-valid', 'the certificate is not yet valid'],
  DEPTH_ZERO_SELF_SIGNED_CERT: ['self-signed', 'the certificate is self-signed'],
  SELF_SIGNED_CERT_IN_CHAIN: ['untrusted', 'the chain ends in a self-signed certificate that is not trusted'],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: [
    'untrusted',
    'the issuer of the certificate is unknown (is an intermediate certificate missing?)',
  ],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: [
    'untrusted',
    'the issuer certificate is not trusted or missing from the chain',
  ],
  UNABLE_TO_GET_ISSUER_CERT: ['untrusted', 'the issuer certificate could not be found'],
  CERT_UNTRUSTED: ['untrusted', 'the certificate is not trusted'],
  CERT_REVOKED: ['other', 'the certificate has been revoked'],
  CERT_SIGNATURE_FAILURE: ['other', 'the certificate signature is invalid'],
  INVALID_CA: ['untrusted', 'a certificate in the chain is not a valid CA'],
  INVALID_PURPOSE: ['other', 'the certificate may not be used for a TLS server'],
  ERR_TLS_CERT_ALTNAME_INVALID: ['wrong-name', 'the certificate does not cover the host name'],
};

function describeProblem(
  code: string,
  leaf: CertificateInfo | undefined,
  name: string,
): NonNullable<TlsReport['verificationError']> {
  const known = certificateProblems[code];
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const covered = leaf?.subjectAltNames.length
      ? leaf.subjectAltNames.join(', ')
      : (leaf?.subject ?? 'nothing');
    return {
      code,
      problem: 'wrong-name',
      message: `the certificate is not valid for ${name} (it covers ${covered})`,
    };
  }
  if (known !== undefined) {
    const [problem, message] = known;
    if (problem === 'expired' && leaf !== undefined)
      return { code, problem, message: `${message} (on ${leaf.validTo})` };
    return { code, problem, message };
  }
  return { code, problem: 'other', message: `certificate verification failed (${code})` };
}

export function certificateInfo(raw: Buffer): CertificateInfo {
  const cert = new X509Certificate(raw);
  const details = cert.publicKey.asymmetricKeyDetails ?? {};
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    subjectAltNames: cert.subjectAltName === undefined ? [] : cert.subjectAltName.split(/,\s*/),
    validFrom: cert.validFromDate.toISOString(),
    validTo: cert.validToDate.toISOString(),
    serialNumber: cert.serialNumber,
    fingerprint256: cert.fingerprint256,
    selfSigned: cert.issuer === cert.subject && cert.verify(cert.publicKey),
    publicKey: {
      type: cert.publicKey.asymmetricKeyType,
      ...(details.modulusLength === undefined ? {} : { bits: details.modulusLength }),
      ...(details.namedCurve === undefined ? {} : { curve: details.namedCurve }),
    },
    pem: cert.toString(),
  };
}

/** The certificates the peer sent, leaf first, without repeating a self-issued root. */
function peerChain(socket: TLSSocket): {
  certificates: CertificateInfo[];
  leaf: DetailedPeerCertificate | undefined;
} {
  const leaf = socket.getPeerCertificate(true);
  const certificates: CertificateInfo[] = [];
  const seen = new Set<string>();
  let current: DetailedPeerCertificate | undefined = leaf?.raw === undefined ? undefined : leaf;
  while (current?.raw !== undefined && !seen.has(current.fingerprint256) && certificates.length < 16) {
    seen.add(current.fingerprint256);
    certificates.push(certificateInfo(current.raw));
    current = current.issuerCertificate as DetailedPeerCertificate | undefined;
  }
  return { certificates, leaf: leaf?.raw === undefined ? undefined : leaf };
}

export function tlsReport(socket: TLSSocket, servername: string | undefined, checkedName: string): TlsReport {
  const { certificates, leaf } = peerChain(socket);
  const cipher = socket.getCipher();
  const hostnameMatches = leaf !== undefined && tls.checkServerIdentity(checkedName, leaf) === undefined;
  const code = socket.authorizationError as unknown as string | Error | null;
  const codeText =
    code === null || code === undefined ? undefined : typeof code === 'string' ? code : code.message;
  return {
    protocol: socket.getProtocol(),
    cipher: { name: cipher.name, standardName: cipher.standardName, version: cipher.version },
    alpnProtocol: typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : null,
    servername,
    verified: socket.authorized,
    ...(socket.authorized || codeText === undefined
      ? {}
      : { verificationError: describeProblem(codeText, certificates[0], checkedName) }),
    hostnameMatches,
    certificates,
  };
}

interface Target extends CheckedTarget {
  https: boolean;
}

interface ConnectRecord {
  address?: string;
  port?: number;
  connectMs?: number;
  tls?: TlsReport;
}

/**
 * An undici connector that opens the socket to the checked addresses only: a name never
 * reaches `net.connect`, so nothing can look it up again (DNS rebinding).
 */
function pinnedConnector(
  target: Target,
  record: ConnectRecord,
  settings: {
    connectTimeoutMs: number;
    secureContext: tls.SecureContext | undefined;
    certificateErrors: CertificateErrorMode;
  },
): buildConnector.connector {
  return (_options, callback) => {
    const started = performance.now();
    const addresses = [...target.addresses];
    const attempt = (): void => {
      const address = addresses.shift();
      if (address === undefined) return;
      let settled = false;
      const servername = target.https && target.isName ? target.host : undefined;
      const refuseLookup = (): never => {
        throw new Error(`refusing a second lookup of ${address}`);
      };
      const socket: net.Socket = target.https
        ? tls.connect({
            host: address,
            port: target.port,
            ...(servername === undefined ? {} : { servername }),
            ...(settings.secureContext === undefined ? {} : { secureContext: settings.secureContext }),
            // verification is judged below so that a report mode can still read the page
            rejectUnauthorized: false,
            ALPNProtocols: ['http/1.1'],
            lookup: refuseLookup,
          })
        : net.connect({ host: address, port: target.port, lookup: refuseLookup });
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (RETRY_NEXT_ADDRESS.has(code) && addresses.length > 0) {
          attempt();
          return;
        }
        callback(
          error instanceof NetError
            ? error
            : target.https && tcpConnected
              ? new NetError(
                  'TLS_HANDSHAKE_FAILED',
                  `No TLS connection could be made with ${target.host} on port ${target.urlPort}: the handshake failed`,
                  { cause: error },
                )
              : new NetError('CONNECT_FAILED', connectFailure(target, code), { cause: error }),
          null,
        );
      };
      const timer = setTimeout(() => {
        fail(
          new NetError(
            'CONNECT_TIMEOUT',
            `${target.host} did not accept a connection on port ${target.urlPort} within ${formatMs(settings.connectTimeoutMs)}`,
          ),
        );
      }, settings.connectTimeoutMs);
      let tcpConnected = false;
      socket.once('connect', () => {
        tcpConnected = true;
      });
      socket.once('error', fail);
      socket.once(target.https ? 'secureConnect' : 'connect', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('error', fail);
        record.address = address;
        record.port = target.port;
        record.connectMs = performance.now() - started;
        if (target.https) {
          const report = tlsReport(socket as TLSSocket, servername, target.host);
          record.tls = report;
          if (!report.verified && settings.certificateErrors === 'fail') {
            socket.destroy();
            callback(
              new NetError(
                'TLS_CERTIFICATE_INVALID',
                `The certificate of ${target.host} is not valid: ${report.verificationError?.message ?? 'verification failed'}`,
                { details: { tls: report } },
              ),
              null,
            );
            return;
          }
        }
        callback(null, socket);
      });
    };
    attempt();
  };
}

/** Drops a response body unread; undici reports the abort as an error nobody needs to hear. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

function undiciCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

export interface HttpClient {
  /**
   * Fetches an http(s) URL through the guarded path: resolve, check every address, connect
   * to a checked one, follow redirects (each checked again), within the limits.
   */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
}

/**
 * A failure that means we could not check, with every URL this fetch tried (the redirects that
 * led to the failed one too), so that the answer lists them (`details.tried`).
 */
function withTried(error: unknown, failedUrl: string, redirects: readonly RedirectHop[]): unknown {
  if (!(error instanceof NetError) || error.tried !== undefined || !isCouldNotCheckCode(error.code))
    return error;
  return new NetError(error.code, error.message, {
    cause: error.cause,
    details: error.details,
    tried: [
      ...redirects.map((hop) => ({ target: hop.url, outcome: `HTTP ${hop.status}, redirected` })),
      { target: failedUrl, outcome: error.message },
    ],
  });
}

// building a context from ~150 roots takes tens of milliseconds: once per set of extra anchors
const contexts = new Map<string, tls.SecureContext>();

/**
 * Limits a scanner's handshake to one kind of server certificate: an OpenSSL cipher string
 * (`aRSA`, `aECDSA`) for TLS 1.2 and below, or signature algorithms for TLS 1.3, whose suites do
 * not name the certificate's key.
 */
export interface HandshakeRestriction {
  ciphers?: string;
  sigalgs?: string;
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
}

/**
 * A TLS context trusting Node's default store plus `extraCa` (an explicit list replaces the
 * default). `legacy` also lets the handshake use TLS 1.0/1.1 and every suite OpenSSL has, for a
 * scanner that must read the certificate of an old server (trust is judged all the same);
 * `restriction` narrows such a handshake to one kind of certificate.
 */
export function trustingContext(
  extraCa: readonly string[],
  legacy = false,
  restriction?: HandshakeRestriction,
  trustStore = true,
): tls.SecureContext {
  const key = `${legacy ? 'legacy' : 'modern'}\n${trustStore ? 'store' : 'none'}\n${JSON.stringify(restriction ?? {})}\n${extraCa.join('\n')}`;
  let context = contexts.get(key);
  if (context === undefined) {
    context = tls.createSecureContext({
      // without a store, Node cannot add an issuer the server did not send to the peer's chain
      ca: trustStore ? [...tls.getCACertificates('default'), ...extraCa] : [],
      ...(legacy ? { minVersion: 'TLSv1' as const, ciphers: 'ALL:@SECLEVEL=0' } : {}),
      ...(restriction?.ciphers === undefined ? {} : { ciphers: `${restriction.ciphers}:@SECLEVEL=0` }),
      ...(restriction?.sigalgs === undefined ? {} : { sigalgs: restriction.sigalgs }),
      ...(restriction?.minVersion === undefined ? {} : { minVersion: restriction.minVersion }),
      ...(restriction?.maxVersion === undefined ? {} : { maxVersion: restriction.maxVersion }),
    });
    contexts.set(key, context);
  }
  return context;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const rules = options.connectTo ?? [];
  const secureContext = options.extraCa?.length ? trustingContext(options.extraCa) : undefined;
  const baseLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };

  /** Where a URL's connection goes, every address checked; throws OUTBOUND_BLOCKED or a DNS error. */
  async function target(url: URL, hop: number, signal: AbortSignal): Promise<Target> {
    const https = url.protocol === 'https:';
    const port = url.port === '' ? (https ? 443 : 80) : Number(url.port);
    const checked = await checkedTarget(
      { resolver: options.resolver, policy: options.policy, connectTo: rules },
      parseUrlHost(url.hostname),
      port,
      { signal, verb: hop === 0 ? 'connect to' : 'follow a redirect to', details: { url: url.href } },
    );
    return { ...checked, https };
  }

  async function hop(
    url: URL,
    index: number,
    settings: {
      limits: HttpLimits;
      signal: AbortSignal;
      method: FetchMethod;
      headers: Record<string, string>;
      certificateErrors: CertificateErrorMode;
      readBody: boolean;
    },
  ): Promise<{
    status: number;
    statusText: string;
    headers: [string, string][];
    body: Buffer;
    record: ConnectRecord;
    timing: HopTiming;
  }> {
    const started = performance.now();
    const where = await target(url, index, settings.signal);
    const dnsMs = performance.now() - started;
    const record: ConnectRecord = {};
    const client = new Client(url.origin, {
      connect: pinnedConnector(where, record, {
        connectTimeoutMs: settings.limits.connectTimeoutMs,
        secureContext,
        certificateErrors: settings.certificateErrors,
      }),
      headersTimeout: settings.limits.firstByteTimeoutMs,
      bodyTimeout: 0,
      pipelining: 1,
    });
    try {
      const response = await client
        .request({
          path: `${url.pathname}${url.search}`,
          method: settings.method,
          headers: settings.headers,
          signal: settings.signal,
          responseHeaders: 'raw',
          reset: true,
        })
        .catch((error: unknown) => {
          if (settings.signal.aborted) throw settings.signal.reason as Error;
          if (error instanceof NetError) throw error;
          const code = undiciCode(error);
          if (code === 'UND_ERR_HEADERS_TIMEOUT')
            throw new NetError(
              'FIRST_BYTE_TIMEOUT',
              `${where.host} sent no response within ${formatMs(settings.limits.firstByteTimeoutMs)}`,
              { cause: error },
            );
          if (code?.startsWith('HPE_'))
            throw new NetError('PROTOCOL_ERROR', `${where.host} sent an invalid HTTP response`, {
              cause: error,
            });
          throw new NetError(
            'CONNECT_FAILED',
            `The connection to ${where.host} broke off before an answer came`,
            { cause: error },
          );
        });
      const headersAt = performance.now();
      const raw = response.headers as unknown as string[];
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) headers.push([String(raw[i]), String(raw[i + 1])]);
      const firstByteMs = headersAt - started - dnsMs - (record.connectMs ?? 0);

      const chunks: Buffer[] = [];
      if (settings.readBody) {
        const max = settings.limits.maxBodyBytes;
        const tooLarge = (): NetError =>
          new NetError('BODY_TOO_LARGE', `Response body exceeds ${formatBytes(max)} (the size limit)`, {
            // the answer's status and type, for callers that judge the response (MTA-STS policy size)
            details: {
              url: url.href,
              status: response.statusCode,
              contentType: headerValue(headers, 'content-type') ?? null,
            },
          });
        const declared = Number(headerValue(headers, 'content-length') ?? Number.NaN);
        if (declared > max) {
          discard(response.body);
          throw tooLarge();
        }
        let received = 0;
        try {
          for await (const chunk of response.body as AsyncIterable<Buffer>) {
            received += chunk.length;
            if (received > max) {
              discard(response.body);
              throw tooLarge();
            }
            chunks.push(chunk);
          }
        } catch (error) {
          if (error instanceof NetError) throw error;
          if (settings.signal.aborted) throw settings.signal.reason as Error;
          throw new NetError(
            'CONNECT_FAILED',
            `The connection to ${where.host} broke off while reading the body`,
            {
              cause: error,
            },
          );
        }
      } else {
        discard(response.body);
      }
      return {
        status: response.statusCode,
        statusText: response.statusText,
        headers,
        body: Buffer.concat(chunks),
        record,
        timing: {
          dnsMs,
          connectMs: record.connectMs ?? 0,
          firstByteMs: Math.max(0, firstByteMs),
          totalMs: performance.now() - started,
        },
      };
    } finally {
      await client.destroy().catch(() => {});
    }
  }

  return {
    async fetch(input, fetchOptions = {}) {
      const limits = { ...baseLimits, ...fetchOptions.limits };
      let url = URL.parse(input);
      if (url === null)
        throw new NetError('INVALID_URL', `Not a valid URL: ${JSON.stringify(input.slice(0, 200))}`);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new NetError('INVALID_URL', `Only http and https URLs can be fetched (got ${url.protocol})`);
      if (url.username !== '' || url.password !== '')
        throw new NetError('INVALID_URL', 'URLs with a user name or password are not fetched');

      const timeout = new AbortController();
      const overallStarted = performance.now();
      const timer = setTimeout(() => {
        timeout.abort(
          new NetError(
            'TIMEOUT',
            `Fetching ${input.slice(0, 200)} took longer than the ${formatMs(limits.totalTimeoutMs)} limit`,
          ),
        );
      }, limits.totalTimeoutMs);
      const signal = fetchOptions.signal
        ? AbortSignal.any([timeout.signal, fetchOptions.signal])
        : timeout.signal;
      const method = fetchOptions.method ?? 'GET';
      const headers: Record<string, string> = {
        accept: '*/*',
        ...Object.fromEntries(
          Object.entries(fetchOptions.headers ?? {}).filter(
            ([name]) => !['host', 'user-agent', 'accept-encoding', 'connection'].includes(name.toLowerCase()),
          ),
        ),
        'user-agent': options.userAgent,
        // the size cap counts bytes as they arrive: no compressed body that unpacks past it
        'accept-encoding': 'identity',
      };
      const redirects: RedirectHop[] = [];
      try {
        for (let index = 0; ; index++) {
          const follow = fetchOptions.followRedirects !== false;
          const result = await hop(url, index, {
            limits,
            signal,
            method,
            headers,
            certificateErrors: fetchOptions.certificateErrors ?? 'fail',
            // HEAD answers have no body; a preflight's is read (within the limits) and returned
            readBody: method !== 'HEAD',
          }).catch((error: unknown) => {
            if (error instanceof NetError && redirects.length > 0)
              throw new NetError(error.code, error.message, {
                cause: error.cause,
                details: { ...error.details, redirects },
              });
            throw error;
          });
          const location = headerValue(result.headers, 'location');
          const address = result.record.address ?? '';
          const port = result.record.port ?? 0;
          if (follow && REDIRECT_STATUSES.has(result.status) && location !== undefined) {
            const next = URL.parse(location, url.href);
            redirects.push({
              url: url.href,
              status: result.status,
              location,
              headers: result.headers,
              address,
              port,
              ...(result.record.tls === undefined ? {} : { tls: result.record.tls }),
              timing: result.timing,
            });
            if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:'))
              throw new NetError(
                'INVALID_REDIRECT',
                `${url.host} redirected to ${JSON.stringify(location.slice(0, 200))}, which is not an http(s) URL`,
                { details: { redirects } },
              );
            if (redirects.length > limits.maxRedirects)
              throw new NetError(
                'TOO_MANY_REDIRECTS',
                `Too many redirects (more than ${limits.maxRedirects})`,
                {
                  details: { redirects },
                },
              );
            url = next;
            continue;
          }
          return {
            url: url.href,
            status: result.status,
            statusText: result.statusText,
            headers: result.headers,
            body: result.body,
            address,
            port,
            ...(result.record.tls === undefined ? {} : { tls: result.record.tls }),
            redirects,
            timing: { ...result.timing, overallMs: performance.now() - overallStarted },
          };
        }
      } catch (error) {
        throw withTried(error, url.href, redirects);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type { NetErrorCode };
