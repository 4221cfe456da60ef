// The server's first flight: ServerHello and HelloRetryRequest (RFC 5246 §7.4.1.3, RFC 8446
// §4.1.3-4.1.4), Certificate (RFC 5246 §7.4.2, RFC 8446 §4.4.2), ServerKeyExchange (RFC 5246
// §7.4.3, RFC 8422 §5.4, RFC 2246 §7.4.3 for export RSA) and ServerHelloDone (RFC 5246 §7.4.5).
import { ByteReader, bitLength } from './bytes.ts';
import { extensionTypes, protocolVersions } from './constants.ts';
import { type WireResult, wireError } from './records.ts';
import type { CipherSuite } from './suite.ts';

/** The random of a HelloRetryRequest: SHA-256 of "HelloRetryRequest" (RFC 8446 §4.1.3). */
export const HELLO_RETRY_REQUEST_RANDOM = Uint8Array.from([
  0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2,
  0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
]);

/** "DOWNGRD" then 01 (a TLS 1.3 server negotiating 1.2) or 00 (1.1 or below), RFC 8446 §4.1.3. */
const DOWNGRADE_PREFIX = [0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44];

export interface Extension {
  type: number;
  data: Uint8Array;
}

export interface ServerHello {
  /** legacy_version / server_version as sent. */
  legacyVersion: number;
  /** The version negotiated: supported_versions' selected_version when present, else legacyVersion. */
  version: number;
  random: Uint8Array;
  sessionId: Uint8Array;
  cipherSuite: number;
  compressionMethod: number;
  extensions: Extension[];
  /** A HelloRetryRequest, recognised by its random: it names version and suite, then asks again. */
  helloRetryRequest: boolean;
  /** supported_versions (RFC 8446 §4.2.1). */
  selectedVersion?: number;
  /** key_share (RFC 8446 §4.2.8): the server's share, or the group a HelloRetryRequest asks for. */
  keyShare?: { group: number; keyExchange?: Uint8Array };
  /** renegotiation_info's renegotiated_connection (empty on a first handshake, RFC 5746 §3.6). */
  renegotiationInfo?: Uint8Array;
  /** The protocol ALPN selected (RFC 7301 §3.1). */
  alpn?: string;
  /** heartbeat mode: 1 peer_allowed_to_send, 2 peer_not_allowed_to_send (RFC 6520 §2). */
  heartbeat?: number;
  ecPointFormats?: number[];
  extendedMasterSecret: boolean;
  sessionTicket: boolean;
  statusRequest: boolean;
  /** RFC 8446 §4.1.3 downgrade sentinel in the random. */
  downgrade?: 'TLSv1.2' | 'TLSv1.1-or-below';
}

function readExtensions(reader: ByteReader): WireResult<Extension[]> {
  // RFC 5246 §7.4.1.4: the extensions field may be absent altogether
  if (reader.remaining === 0) return { ok: true, result: [] };
  const block = reader.vector(2);
  if (block === undefined) return wireError('TRUNCATED', 'the extensions block runs past the message');
  if (reader.remaining !== 0) return wireError('MALFORMED', 'bytes after the extensions block');
  const list = new ByteReader(block);
  const extensions: Extension[] = [];
  const seen = new Set<number>();
  while (list.remaining > 0) {
    const type = list.u16();
    const data = list.vector(2);
    if (type === undefined || data === undefined)
      return wireError('MALFORMED', 'an extension runs past its block');
    // RFC 8446 §4.2: never more than one extension of a type
    if (seen.has(type)) return wireError('MALFORMED', `extension ${type} appears twice`);
    seen.add(type);
    extensions.push({ type, data });
  }
  return { ok: true, result: extensions };
}

function equalBytes(a: Uint8Array, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** ServerHello body (without the 4-byte handshake header). */
export function parseServerHello(body: Uint8Array): WireResult<ServerHello> {
  const reader = new ByteReader(body);
  const legacyVersion = reader.u16();
  const random = reader.take(32);
  const sessionId = reader.vector(1);
  const cipherSuite = reader.u16();
  const compressionMethod = reader.u8();
  if (
    legacyVersion === undefined ||
    random === undefined ||
    sessionId === undefined ||
    cipherSuite === undefined ||
    compressionMethod === undefined
  )
    return wireError('TRUNCATED', 'ServerHello ends before its compression method');
  if (sessionId.length > 32) return wireError('MALFORMED', `a session id of ${sessionId.length} bytes`);
  const extensions = readExtensions(reader);
  if (!extensions.ok) return extensions;
  const helloRetryRequest = equalBytes(random, HELLO_RETRY_REQUEST_RANDOM);
  const hello: ServerHello = {
    legacyVersion,
    version: legacyVersion,
    random: random.slice(),
    sessionId: sessionId.slice(),
    cipherSuite,
    compressionMethod,
    extensions: extensions.result.map((e) => ({ type: e.type, data: e.data.slice() })),
    helloRetryRequest,
    extendedMasterSecret: false,
    sessionTicket: false,
    statusRequest: false,
  };
  const tail = random.subarray(24);
  if (!helloRetryRequest && equalBytes(tail.subarray(0, 7), DOWNGRADE_PREFIX)) {
    if (tail[7] === 1) hello.downgrade = 'TLSv1.2';
    else if (tail[7] === 0) hello.downgrade = 'TLSv1.1-or-below';
  }
  for (const { type, data } of hello.extensions) {
    const problem = readKnownExtension(hello, type, new ByteReader(data));
    if (problem !== undefined) return wireError('MALFORMED', problem);
  }
  return { ok: true, result: hello };
}

/** Fills in a known extension's meaning; returns what is wrong with it, if anything. */
function readKnownExtension(hello: ServerHello, type: number, data: ByteReader): string | undefined {
  const done = (name: string) => (data.remaining === 0 ? undefined : `${name} has trailing bytes`);
  switch (type) {
    case extensionTypes.supported_versions: {
      const version = data.u16();
      if (version === undefined) return 'supported_versions is cut short';
      hello.selectedVersion = version;
      hello.version = version;
      return done('supported_versions');
    }
    case extensionTypes.key_share: {
      const group = data.u16();
      if (group === undefined) return 'key_share is cut short';
      if (hello.helloRetryRequest) {
        hello.keyShare = { group }; // KeyShareHelloRetryRequest: selected_group only
        return done('key_share');
      }
      const key = data.vector(2);
      if (key === undefined || key.length === 0) return 'key_share has no key_exchange';
      hello.keyShare = { group, keyExchange: key.slice() };
      return done('key_share');
    }
    case extensionTypes.renegotiation_info: {
      const connection = data.vector(1);
      if (connection === undefined) return 'renegotiation_info is cut short';
      hello.renegotiationInfo = connection.slice();
      return done('renegotiation_info');
    }
    case extensionTypes.application_layer_protocol_negotiation: {
      const list = data.vector(2);
      const names = list === undefined ? undefined : new ByteReader(list);
      const name = names?.vector(1);
      // RFC 7301 §3.1: the server's list holds exactly one protocol
      if (names === undefined || name === undefined || name.length === 0 || names.remaining !== 0)
        return 'ALPN must name exactly one protocol';
      hello.alpn = new TextDecoder('utf-8', { fatal: false }).decode(name);
      return done('ALPN');
    }
    case extensionTypes.heartbeat: {
      const mode = data.u8();
      if (mode === undefined) return 'heartbeat is cut short';
      hello.heartbeat = mode;
      return done('heartbeat');
    }
    case extensionTypes.ec_point_formats: {
      const formats = data.vector(1);
      if (formats === undefined) return 'ec_point_formats is cut short';
      hello.ecPointFormats = [...formats];
      return done('ec_point_formats');
    }
    case extensionTypes.extended_master_secret:
      hello.extendedMasterSecret = true;
      return done('extended_master_secret');
    case extensionTypes.session_ticket:
      hello.sessionTicket = true;
      return done('session_ticket');
    case extensionTypes.status_request:
      hello.statusRequest = true;
      return done('status_request');
    default:
      return undefined;
  }
}

/**
 * Certificate body: the DER certificates, leaf first. TLS 1.2 and earlier send a bare list
 * (RFC 5246 §7.4.2); `tls13` reads RFC 8446 §4.4.2's form (context, entries with extensions).
 */
export function parseCertificate(
  body: Uint8Array,
  options: { tls13?: boolean } = {},
): WireResult<Uint8Array[]> {
  const reader = new ByteReader(body);
  if (options.tls13 && reader.vector(1) === undefined)
    return wireError('TRUNCATED', 'Certificate ends in its request context');
  const list = reader.vector(3);
  if (list === undefined) return wireError('TRUNCATED', 'the certificate list runs past the message');
  if (reader.remaining !== 0) return wireError('MALFORMED', 'bytes after the certificate list');
  const entries = new ByteReader(list);
  const certificates: Uint8Array[] = [];
  while (entries.remaining > 0) {
    const der = entries.vector(3);
    if (der === undefined || der.length === 0)
      return wireError('MALFORMED', 'a certificate entry is empty or cut short');
    if (options.tls13 && entries.vector(2) === undefined)
      return wireError('MALFORMED', 'a certificate entry has no extensions field');
    certificates.push(der.slice());
  }
  return { ok: true, result: certificates };
}

export type ServerKeyExchangeKind = 'dhe' | 'ecdhe' | 'rsa';

export interface ServerKeyExchangeSignature {
  /** SignatureAndHashAlgorithm (TLS 1.2 only, RFC 5246 §7.4.1.4.1). */
  scheme?: number;
  signature: Uint8Array;
}

export type ServerKeyExchange =
  | {
      kind: 'dhe';
      prime: Uint8Array;
      /** Size of p in bits: what DH parameter checks (e.g. at least 2048) compare. */
      primeBits: number;
      generator: Uint8Array;
      publicValue: Uint8Array;
      signature?: ServerKeyExchangeSignature;
    }
  | {
      kind: 'ecdhe';
      /** ECCurveType: 3 named_curve; 1 and 2 (explicit curves) are deprecated (RFC 8422 §5.4). */
      curveType: number;
      /** The NamedGroup for curve type 3. */
      group?: number;
      point?: Uint8Array;
      signature?: ServerKeyExchangeSignature;
    }
  | {
      kind: 'rsa';
      modulus: Uint8Array;
      modulusBits: number;
      exponent: Uint8Array;
      signature?: ServerKeyExchangeSignature;
    };

export interface ServerKeyExchangeOptions {
  kind: ServerKeyExchangeKind;
  /** The negotiated version: TLS 1.2 puts a SignatureAndHashAlgorithm before the signature. */
  version: number;
  /** False for anonymous suites, which send no signature (RFC 5246 §7.4.3). */
  signed: boolean;
}

/**
 * How a suite's ServerKeyExchange is to be read, or undefined when the suite sends none (static
 * RSA/DH/ECDH, TLS 1.3) or one this reader does not decode (PSK, SRP, GOST, ECCPWD).
 */
export function serverKeyExchangeKindOf(
  suite: Pick<CipherSuite, 'keyExchange' | 'authentication' | 'export'>,
): { kind: ServerKeyExchangeKind; signed: boolean } | undefined {
  const anonymous = suite.authentication === 'anon';
  if (suite.keyExchange === 'DHE' && suite.authentication !== 'PSK') return { kind: 'dhe', signed: true };
  if (suite.keyExchange === 'ECDHE' && suite.authentication !== 'PSK')
    return { kind: 'ecdhe', signed: !anonymous };
  if (suite.keyExchange === 'DH' && anonymous) return { kind: 'dhe', signed: false };
  if (suite.keyExchange === 'ECDH' && anonymous) return { kind: 'ecdhe', signed: false };
  // export RSA sends a temporary 512-bit key when the certificate's key is longer (RFC 2246 §7.4.3)
  if (suite.keyExchange === 'RSA' && suite.export) return { kind: 'rsa', signed: true };
  return undefined;
}

function readSignature(reader: ByteReader, version: number): WireResult<ServerKeyExchangeSignature> {
  const scheme = version >= protocolVersions['TLSv1.2'] ? reader.u16() : undefined;
  if (version >= protocolVersions['TLSv1.2'] && scheme === undefined)
    return wireError('TRUNCATED', 'ServerKeyExchange ends before its signature algorithm');
  const signature = reader.vector(2);
  if (signature === undefined) return wireError('TRUNCATED', 'the signature runs past the message');
  if (reader.remaining !== 0) return wireError('MALFORMED', 'bytes after the signature');
  return {
    ok: true,
    result:
      scheme === undefined ? { signature: signature.slice() } : { scheme, signature: signature.slice() },
  };
}

export function parseServerKeyExchange(
  body: Uint8Array,
  options: ServerKeyExchangeOptions,
): WireResult<ServerKeyExchange> {
  const reader = new ByteReader(body);
  const finish = <T extends ServerKeyExchange>(params: T): WireResult<ServerKeyExchange> => {
    if (!options.signed) {
      if (reader.remaining !== 0) return wireError('MALFORMED', 'bytes after the unsigned parameters');
      return { ok: true, result: params };
    }
    const signature = readSignature(reader, options.version);
    if (!signature.ok) return signature;
    return { ok: true, result: { ...params, signature: signature.result } };
  };
  switch (options.kind) {
    case 'dhe': {
      // ServerDHParams: dh_p<1..2^16-1>, dh_g<1..2^16-1>, dh_Ys<1..2^16-1> (RFC 5246 §7.4.3)
      const prime = reader.vector(2);
      const generator = reader.vector(2);
      const publicValue = reader.vector(2);
      if (prime === undefined || generator === undefined || publicValue === undefined)
        return wireError('TRUNCATED', 'ServerDHParams run past the message');
      if (prime.length === 0 || generator.length === 0 || publicValue.length === 0)
        return wireError('MALFORMED', 'an empty DH parameter');
      return finish({
        kind: 'dhe',
        prime: prime.slice(),
        primeBits: bitLength(prime),
        generator: generator.slice(),
        publicValue: publicValue.slice(),
      });
    }
    case 'ecdhe': {
      const curveType = reader.u8();
      if (curveType === undefined) return wireError('TRUNCATED', 'ServerECDHParams are empty');
      if (curveType !== 3) {
        // explicit_prime (1) and explicit_char2 (2) carry a whole curve: reported, not decoded
        if (curveType === 1 || curveType === 2) return { ok: true, result: { kind: 'ecdhe', curveType } };
        return wireError('MALFORMED', `ECCurveType ${curveType}`);
      }
      const group = reader.u16();
      const point = reader.vector(1);
      if (group === undefined || point === undefined)
        return wireError('TRUNCATED', 'ServerECDHParams run past the message');
      if (point.length === 0) return wireError('MALFORMED', 'an empty ECDH public point');
      return finish({ kind: 'ecdhe', curveType, group, point: point.slice() });
    }
    case 'rsa': {
      const modulus = reader.vector(2);
      const exponent = reader.vector(2);
      if (modulus === undefined || exponent === undefined)
        return wireError('TRUNCATED', 'ServerRSAParams run past the message');
      if (modulus.length === 0 || exponent.length === 0)
        return wireError('MALFORMED', 'an empty RSA parameter');
      return finish({
        kind: 'rsa',
        modulus: modulus.slice(),
        modulusBits: bitLength(modulus),
        exponent: exponent.slice(),
      });
    }
  }
}

/** ServerHelloDone has an empty body (RFC 5246 §7.4.5). */
export function parseServerHelloDone(body: Uint8Array): WireResult<true> {
  return body.length === 0
    ? { ok: true, result: true }
    : wireError('MALFORMED', `ServerHelloDone carries ${body.length} bytes`);
}
