// ClientHello builders for probing a server: SSL 2.0's CLIENT-HELLO
// (draft-ietf-tls-ssl-version2 §2.5), and the SSL 3.0 / TLS 1.0-1.3 ClientHello
// (RFC 6101 §5.6.1.2, RFC 5246 §7.4.1.2, RFC 8446 §4.1.2) with the extensions a scanner needs.
import type { Outcome } from '../core/outcome.ts';
import { ByteWriter } from './bytes.ts';
import {
  SSL2_VERSION,
  TLS_EMPTY_RENEGOTIATION_INFO_SCSV,
  TLS_FALLBACK_SCSV,
  type TlsVersionName,
  contentTypes,
  extensionTypes,
  handshakeTypes,
  namedGroups,
  protocolVersions,
  signatureSchemes,
} from './constants.ts';

/** A key share the caller made (RFC 8446 §4.2.8): an X25519 public key, an uncompressed P-256 point … */
export interface KeyShareEntry {
  group: number;
  keyExchange: Uint8Array;
}

export interface ClientHelloOptions {
  /** The highest version offered; TLSv1.3 puts 0x0303 in legacy_version and sends supported_versions. */
  version: TlsVersionName;
  /** Cipher suite code points in order of preference (any values, also ones this code does not know). */
  cipherSuites: readonly number[];
  /** 32 bytes; random by default. */
  random?: Uint8Array;
  /** Up to 32 bytes; 32 random bytes for TLSv1.3 (RFC 8446 §D.4 compatibility mode), else empty. */
  sessionId?: Uint8Array;
  /** server_name (RFC 6066 §3): a DNS host name, never an IP address literal. */
  serverName?: string;
  /** supported_groups (RFC 8422 §5.1.1, RFC 8446 §4.2.7); a common list by default. */
  groups?: readonly number[];
  /** ec_point_formats (RFC 8422 §5.1.2); [0] (uncompressed) by default; [] leaves it out. */
  ecPointFormats?: readonly number[];
  /** signature_algorithms (RFC 5246 §7.4.1.4.1, RFC 8446 §4.2.3); sent for TLSv1.2 and up. */
  signatureAlgorithms?: readonly number[];
  /** supported_versions for TLSv1.3 (RFC 8446 §4.2.1); [0x0304] by default. */
  supportedVersions?: readonly number[];
  /** key_share entries for TLSv1.3; none makes a server that accepts answer HelloRetryRequest. */
  keyShares?: readonly KeyShareEntry[];
  /** ALPN protocol names (RFC 7301 §3.1). */
  alpn?: readonly string[];
  /** status_request for OCSP stapling (RFC 6066 §8). */
  statusRequest?: boolean;
  /**
   * Secure renegotiation signal (RFC 5746 §3.4): the empty renegotiation_info extension, the
   * TLS_EMPTY_RENEGOTIATION_INFO_SCSV suite, or nothing. Default: the SCSV for SSLv3 (which has
   * no extensions), else the extension.
   */
  renegotiation?: 'extension' | 'scsv' | 'none';
  /** heartbeat extension, peer_allowed_to_send (RFC 6520 §2). */
  heartbeat?: boolean;
  /** An empty session_ticket extension (RFC 5077 §3.2). */
  sessionTicket?: boolean;
  /** extended_master_secret (RFC 7627 §5.1); sent for TLS 1.0-1.2 by default. */
  extendedMasterSecret?: boolean;
  /** TLS_FALLBACK_SCSV as the last suite (RFC 7507 §4): a deliberate downgrade probe. */
  fallbackScsv?: boolean;
  /** Pad a hello of 256-511 bytes to 512 (RFC 7685 §4); default true. */
  padding?: boolean;
  /** Compression methods; [0] (null) by default. */
  compressionMethods?: readonly number[];
  /** The record layer's version; 0x0301 by default (0x0300 for SSLv3; RFC 8446 §5.1, §D.2). */
  recordVersion?: number;
}

export const defaultGroups: readonly number[] = [
  namedGroups.x25519,
  namedGroups.secp256r1,
  namedGroups.x448,
  namedGroups.secp384r1,
  namedGroups.secp521r1,
  namedGroups.ffdhe2048,
  namedGroups.ffdhe3072,
];

export const defaultSignatureAlgorithms: readonly number[] = [
  signatureSchemes.ecdsa_secp256r1_sha256,
  signatureSchemes.ecdsa_secp384r1_sha384,
  signatureSchemes.ecdsa_secp521r1_sha512,
  signatureSchemes.ed25519,
  signatureSchemes.ed448,
  signatureSchemes.rsa_pss_rsae_sha256,
  signatureSchemes.rsa_pss_rsae_sha384,
  signatureSchemes.rsa_pss_rsae_sha512,
  signatureSchemes.rsa_pss_pss_sha256,
  signatureSchemes.rsa_pss_pss_sha384,
  signatureSchemes.rsa_pss_pss_sha512,
  signatureSchemes.rsa_pkcs1_sha256,
  signatureSchemes.rsa_pkcs1_sha384,
  signatureSchemes.rsa_pkcs1_sha512,
  signatureSchemes.ecdsa_sha1,
  signatureSchemes.rsa_pkcs1_sha1,
  signatureSchemes.dsa_sha256,
  signatureSchemes.dsa_sha1,
];

/** Largest plaintext fragment of a record (RFC 5246 §6.2.1, RFC 8446 §5.1). */
export const MAX_FRAGMENT = 16384;

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

const encoder = new TextEncoder();

/** One record, or several when the fragment is longer than a record may carry (RFC 5246 §6.2.1). */
export function encodeRecords(type: number, version: number, fragment: Uint8Array): Uint8Array {
  const writer = new ByteWriter();
  let offset = 0;
  do {
    const piece = fragment.subarray(offset, offset + MAX_FRAGMENT);
    writer.u8(type).u16(version).u16(piece.length).bytes(piece);
    offset += MAX_FRAGMENT;
  } while (offset < fragment.length);
  return writer.finish();
}

function validHostName(name: string): boolean {
  // RFC 6066 §3: a DNS host name in ASCII, without a trailing dot; literal IPs are not permitted
  return (
    name.length > 0 &&
    name.length <= 253 &&
    /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/.test(
      name,
    ) &&
    !/^[0-9.]+$/.test(name)
  );
}

function checkOptions(options: ClientHelloOptions): string | undefined {
  const u16s = (values: readonly number[]) =>
    values.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff);
  if (options.cipherSuites.length === 0) return 'offer at least one cipher suite';
  if (!u16s(options.cipherSuites)) return 'a cipher suite code point is a number from 0 to 65535';
  if (options.cipherSuites.length > 32000) return 'too many cipher suites for one ClientHello';
  if (options.random && options.random.length !== 32) return 'the random is 32 bytes';
  if (options.sessionId && options.sessionId.length > 32) return 'a session id is at most 32 bytes';
  if (options.serverName !== undefined && !validHostName(options.serverName))
    return 'server_name takes a DNS host name (no IP address, no trailing dot)';
  for (const list of [options.groups, options.signatureAlgorithms, options.supportedVersions])
    if (list && !u16s(list)) return 'groups, signature algorithms and versions are numbers from 0 to 65535';
  for (const share of options.keyShares ?? [])
    if (!u16s([share.group]) || share.keyExchange.length === 0 || share.keyExchange.length > 0xffff)
      return 'a key share has a group and 1-65535 bytes of key';
  for (const name of options.alpn ?? [])
    if (encoder.encode(name).length === 0 || encoder.encode(name).length > 255)
      return 'an ALPN protocol name is 1-255 bytes';
  const methods = options.compressionMethods ?? [0];
  if (
    methods.length === 0 ||
    methods.length > 255 ||
    methods.some((m) => !Number.isInteger(m) || m < 0 || m > 255)
  )
    return 'offer 1-255 compression methods of one byte';
  return undefined;
}

function extension(writer: ByteWriter, type: number, fill: (w: ByteWriter) => void): void {
  writer.u16(type).vector(2, fill);
}

/**
 * A complete ClientHello record (several records if it is longer than 16 KiB) for SSLv3 or
 * TLS 1.0-1.3. SSLv3 hellos carry no extensions (RFC 6101 has none).
 */
export function buildClientHello(options: ClientHelloOptions): Outcome<Uint8Array> {
  const problem = checkOptions(options);
  if (problem !== undefined) return { ok: false, error: problem };
  const message = clientHelloMessage(options);
  const recordVersion =
    options.recordVersion ??
    (options.version === 'SSLv3' ? protocolVersions.SSLv3 : protocolVersions['TLSv1.0']);
  return { ok: true, result: encodeRecords(contentTypes.handshake, recordVersion, message) };
}

/** The ClientHello handshake message (type, length, body), without the record header. */
export function clientHelloMessage(options: ClientHelloOptions): Uint8Array {
  const tls13 = options.version === 'TLSv1.3';
  const ssl3 = options.version === 'SSLv3';
  const renegotiation = options.renegotiation ?? (ssl3 ? 'scsv' : 'extension');
  const suites = [...options.cipherSuites];
  if (renegotiation === 'scsv' || (ssl3 && renegotiation === 'extension'))
    suites.push(TLS_EMPTY_RENEGOTIATION_INFO_SCSV);
  if (options.fallbackScsv) suites.push(TLS_FALLBACK_SCSV);

  const extensions = ssl3 ? undefined : helloExtensions(options, renegotiation === 'extension');
  const body = (padding: number | undefined) => {
    const writer = new ByteWriter()
      .u16(tls13 ? protocolVersions['TLSv1.2'] : protocolVersions[options.version])
      .bytes(options.random ?? randomBytes(32))
      .vector(1, (w) => w.bytes(options.sessionId ?? (tls13 ? randomBytes(32) : new Uint8Array(0))))
      .vector(2, (w) => suites.forEach((suite) => w.u16(suite)))
      .vector(1, (w) => w.bytes(options.compressionMethods ?? [0]));
    if (extensions !== undefined)
      writer.vector(2, (w) => {
        w.bytes(extensions);
        if (padding !== undefined)
          extension(w, extensionTypes.padding, (p) => p.bytes(new Uint8Array(padding)));
      });
    return writer.finish();
  };
  let hello = body(undefined);
  // RFC 7685 §4 and its motivating bug: some servers hang on a hello of 256-511 bytes; pad it
  // to 512 (the 4-byte handshake header counts, as in the record payload)
  const length = hello.length + 4;
  if (extensions !== undefined && options.padding !== false && length > 0xff && length < 0x200) {
    const missing = 0x200 - length;
    hello = body(missing >= 5 ? missing - 4 : 1);
  }
  return new ByteWriter().u8(handshakeTypes.client_hello).u24(hello.length).bytes(hello).finish();
}

function helloExtensions(options: ClientHelloOptions, renegotiationExtension: boolean): Uint8Array {
  const tls13 = options.version === 'TLSv1.3';
  const tls12up = tls13 || options.version === 'TLSv1.2';
  const w = new ByteWriter();
  if (options.serverName !== undefined) {
    const name = encoder.encode(options.serverName);
    // ServerNameList with one host_name (0) entry (RFC 6066 §3)
    extension(w, extensionTypes.server_name, (e) =>
      e.vector(2, (l) => l.u8(0).vector(2, (n) => n.bytes(name))),
    );
  }
  if (options.extendedMasterSecret ?? !tls13) extension(w, extensionTypes.extended_master_secret, () => {});
  if (renegotiationExtension) extension(w, extensionTypes.renegotiation_info, (e) => e.u8(0));
  const groups = options.groups ?? defaultGroups;
  if (groups.length > 0)
    extension(w, extensionTypes.supported_groups, (e) => e.vector(2, (l) => groups.forEach((g) => l.u16(g))));
  const formats = options.ecPointFormats ?? [0];
  if (formats.length > 0)
    extension(w, extensionTypes.ec_point_formats, (e) => e.vector(1, (l) => l.bytes(formats)));
  if (options.sessionTicket) extension(w, extensionTypes.session_ticket, () => {});
  if (options.alpn && options.alpn.length > 0) {
    const names = options.alpn;
    extension(w, extensionTypes.application_layer_protocol_negotiation, (e) =>
      e.vector(2, (l) => names.forEach((name) => l.vector(1, (n) => n.bytes(encoder.encode(name))))),
    );
  }
  // CertificateStatusRequest: ocsp (1), no responder ids, no request extensions (RFC 6066 §8)
  if (options.statusRequest) extension(w, extensionTypes.status_request, (e) => e.u8(1).u16(0).u16(0));
  if (tls12up) {
    const schemes = options.signatureAlgorithms ?? defaultSignatureAlgorithms;
    extension(w, extensionTypes.signature_algorithms, (e) =>
      e.vector(2, (l) => schemes.forEach((s) => l.u16(s))),
    );
  }
  if (options.heartbeat) extension(w, extensionTypes.heartbeat, (e) => e.u8(1));
  if (tls13) {
    const versions = options.supportedVersions ?? [protocolVersions['TLSv1.3']];
    extension(w, extensionTypes.supported_versions, (e) =>
      e.vector(1, (l) => versions.forEach((v) => l.u16(v))),
    );
    // psk_dhe_ke only (RFC 8446 §4.2.9): offered so that a server may issue tickets
    extension(w, extensionTypes.psk_key_exchange_modes, (e) => e.vector(1, (l) => l.u8(1)));
    const shares = options.keyShares ?? [];
    extension(w, extensionTypes.key_share, (e) =>
      e.vector(2, (l) => shares.forEach((s) => l.u16(s.group).vector(2, (k) => k.bytes(s.keyExchange)))),
    );
  }
  return w.finish();
}

export interface Ssl2ClientHelloOptions {
  /** CIPHER-KIND values (3 bytes each): SSL 2.0 kinds, or 0x00XXXX for SSL 3.0/TLS suites. */
  cipherKinds: readonly number[];
  /** 16-32 bytes; 16 random bytes by default. */
  challenge?: Uint8Array;
  sessionId?: Uint8Array;
  /** CLIENT-VERSION: 0x0002 by default; 0x0301 and up make a version-2-compatible TLS hello (RFC 5246 §E.2). */
  version?: number;
}

/** An SSL 2.0 CLIENT-HELLO in a two-byte-header record (draft-ietf-tls-ssl-version2 §1.2, §2.5). */
export function buildSsl2ClientHello(options: Ssl2ClientHelloOptions): Outcome<Uint8Array> {
  const challenge = options.challenge ?? randomBytes(16);
  const sessionId = options.sessionId ?? new Uint8Array(0);
  if (options.cipherKinds.length === 0) return { ok: false, error: 'offer at least one cipher kind' };
  if (options.cipherKinds.some((k) => !Number.isInteger(k) || k < 0 || k > 0xffffff))
    return { ok: false, error: 'a cipher kind is a number from 0 to 0xFFFFFF' };
  if (challenge.length < 16 || challenge.length > 32)
    return { ok: false, error: 'the challenge is 16-32 bytes' };
  if (sessionId.length !== 0 && sessionId.length !== 16)
    return { ok: false, error: 'a session id is 16 bytes' };
  const body = new ByteWriter()
    .u8(1) // MSG-CLIENT-HELLO
    .u16(options.version ?? SSL2_VERSION)
    .u16(options.cipherKinds.length * 3)
    .u16(sessionId.length)
    .u16(challenge.length);
  for (const kind of options.cipherKinds) body.u24(kind);
  body.bytes(sessionId).bytes(challenge);
  const bytes = body.finish();
  if (bytes.length > 0x7fff) return { ok: false, error: 'too many cipher kinds for one SSL 2.0 record' };
  // a two-byte header: the high bit set, then the 15-bit length (no padding)
  return {
    ok: true,
    result: new ByteWriter()
      .u16(0x8000 | bytes.length)
      .bytes(bytes)
      .finish(),
  };
}
