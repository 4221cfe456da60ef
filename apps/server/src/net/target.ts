import { formatAddress, isLocalhostName, type AddressPolicy, type ParsedHost } from './address.ts';
import { findConnectTo, type ConnectToRule } from './connect-to.ts';
import { DnsLookupError, isResolverFailure } from './dns.ts';
import { NetError, resolverUnavailable } from './errors.ts';

/** What the guarded clients need from the DNS client: every A and AAAA address of a name. */
export interface AddressResolver {
  resolveAddresses(name: string): Promise<string[]>;
}

/** Where a connection goes once every address was checked (docs/architecture.md §6). */
export interface CheckedTarget {
  /** Name or address literal as the user gave it (no brackets), for messages, SNI and identity checks. */
  host: string;
  isName: boolean;
  /** The checked addresses, IPv4 first; sockets connect to these and never look the name up again. */
  addresses: string[];
  /** The port connected to (an OUTBOUND_CONNECT_TO rule may change it). */
  port: number;
  /** The port the user asked for, for messages: the user's, never a lab's. */
  urlPort: number;
}

export interface TargetRules {
  resolver: AddressResolver;
  policy: AddressPolicy;
  connectTo: readonly ConnectToRule[];
}

/** Connect errors after which the next checked address of a name is tried. */
export const RETRY_NEXT_ADDRESS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
]);

/**
 * A failed connection in plain words, naming the host and port the user asked for: never the
 * errno text, which quotes addresses (the connect-to target of a test lab among them).
 */
export function connectFailure(
  target: Pick<CheckedTarget, 'host' | 'urlPort'>,
  code: string | undefined,
): string {
  const where = `port ${target.urlPort} at ${target.host}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing answered on ${where}`;
    case 'ECONNRESET':
      return `The connection to ${where} was closed before it was set up`;
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `There is no network route to ${where}`;
    default:
      return `No connection could be made to ${where}`;
  }
}

/** OpenSSL's reasons a TLS client gives up on a server, in plain words. */
const HANDSHAKE_REASONS: Readonly<Record<string, string>> = {
  ERR_SSL_WRONG_VERSION_NUMBER: 'it answered with a protocol version this client does not speak',
  ERR_SSL_UNSUPPORTED_PROTOCOL: 'it offers only protocol versions this client does not speak',
  ERR_SSL_NO_PROTOCOLS_AVAILABLE: 'it offers only protocol versions this client does not speak',
  ERR_SSL_UNSAFE_LEGACY_RENEGOTIATION_DISABLED: 'it does not support secure renegotiation (RFC 5746)',
  ERR_SSL_DH_KEY_TOO_SMALL: 'its Diffie-Hellman prime is too small',
  ERR_SSL_EE_KEY_TOO_SMALL: 'its certificate key is too small',
  ERR_SSL_CA_KEY_TOO_SMALL: 'a certificate of its chain has too small a key',
  ERR_SSL_CA_MD_TOO_WEAK: 'a certificate of its chain is signed with too weak a hash',
  ERR_SSL_NO_SHARED_CIPHER: 'it shares no cipher suite with this client',
  ERR_SSL_WRONG_SIGNATURE_TYPE: 'it signed with a scheme this client did not offer',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'it sent something that is not a TLS record',
  ERR_SSL_RECORD_LAYER_FAILURE: 'it sent a broken TLS record',
};

/**
 * A failed TLS handshake in plain words, naming the host and port the user asked for: never
 * OpenSSL's error queue text (`error:0A000410:SSL routines::…`) nor the errno text, which quotes
 * addresses.
 */
export function tlsHandshakeFailure(
  target: Pick<CheckedTarget, 'host' | 'urlPort'>,
  error: { code?: unknown; reason?: unknown },
): string {
  const reason = tlsHandshakeReason(error);
  return `The TLS handshake with ${target.host} on port ${target.urlPort} failed${reason === null ? '' : `: ${reason}`}`;
}

/** Why a TLS handshake failed in plain words, without naming the host, or null when OpenSSL gave no usable reason. */
export function tlsHandshakeReason(error: { code?: unknown; reason?: unknown }): string | null {
  const code = typeof error.code === 'string' ? error.code : undefined;
  // a TLS alert from the server: ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE (OpenSSL 3.5),
  // ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE, ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION …
  const alert =
    code === undefined ? undefined : /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13|SSL\/TLS)_ALERT_(\w+)$/.exec(code)?.[1];
  if (alert !== undefined) return `the server ended it with a ${alert.toLowerCase()} alert`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the server closed the connection';
  return (
    (code === undefined ? undefined : HANDSHAKE_REASONS[code]) ??
    (typeof error.reason === 'string' && /^[\w ,.'()-]+$/.test(error.reason) ? error.reason : null)
  );
}

/**
 * Maps a failure of the DNS client to the user-facing error, keeping NetErrors as they are. Our
 * resolver failing (docs/architecture.md §6) is told apart from the name's servers failing.
 */
export function dnsError(name: string, error: unknown): NetError {
  if (error instanceof NetError) return error;
  if (error instanceof DnsLookupError) {
    if (error.results.some(isResolverFailure)) return resolverUnavailable(name, { cause: error });
    if (error.code === 'nxdomain' || error.code === 'nodata')
      return new NetError(error.code === 'nxdomain' ? 'DNS_NOT_FOUND' : 'DNS_NO_ADDRESS', error.message, {
        cause: error,
      });
    return new NetError(
      'DNS_FAILED',
      `The DNS servers of ${name} did not give its address: ${
        error.results.find((result) => 'message' in result)?.message ?? 'the lookup failed'
      }`,
      { cause: error },
    );
  }
  return new NetError('DNS_FAILED', `The address of ${name} could not be looked up`, { cause: error });
}

/** Rejects with the signal's reason as soon as it aborts. */
export function raced<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * Resolves `host` (unless a connect-to rule or an address literal names the address) and
 * checks every address against the outbound rule: a name that also points inward is refused
 * outright with OUTBOUND_BLOCKED. `verb` words the refusal ("connect to", "follow a redirect to").
 */
export async function checkedTarget(
  rules: TargetRules,
  parsed: ParsedHost,
  port: number,
  options: { signal: AbortSignal; verb: string; details?: Readonly<Record<string, unknown>> },
): Promise<CheckedTarget> {
  const host = parsed.kind === 'address' ? parsed.address : parsed.name;
  const rule = findConnectTo(rules.connectTo, host, port);
  let addresses: string[];
  let connectPort = port;
  if (rule !== undefined) {
    addresses = [rule.address];
    connectPort = rule.toPort;
  } else if (parsed.kind === 'address') {
    addresses = [parsed.address];
  } else if (isLocalhostName(parsed.name)) {
    // RFC 6761 §6.3: never asked of DNS, always loopback
    addresses = ['127.0.0.1', '::1'];
  } else {
    try {
      addresses = await raced(rules.resolver.resolveAddresses(parsed.name), options.signal);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason as Error;
      throw dnsError(parsed.name, error);
    }
    if (addresses.length === 0)
      throw new NetError('DNS_NO_ADDRESS', `The domain ${parsed.name} has no A or AAAA record`);
  }
  const verdicts = addresses.map((address) => rules.policy.check(address));
  const refused = verdicts.find((verdict) => !verdict.allowed);
  if (refused !== undefined) {
    const shown =
      parsed.kind === 'address' && rule === undefined
        ? formatAddress(refused.address)
        : `${host} (${formatAddress(refused.address)})`;
    throw new NetError(
      'OUTBOUND_BLOCKED',
      `Refusing to ${options.verb} ${shown}: ${refused.blocked?.reason ?? 'refused'}`,
      {
        details: { ...options.details, address: refused.address, category: refused.blocked?.category },
      },
    );
  }
  const checked = verdicts.map((verdict) => verdict.address);
  // IPv4 first: many servers have no IPv6 route, and a refused v6 then falls back to v4 anyway
  checked.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  return { host, isName: parsed.kind === 'name', addresses: checked, port: connectPort, urlPort: port };
}
