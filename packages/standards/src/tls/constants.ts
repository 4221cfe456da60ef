// Code points of the TLS and SSL wire protocols, with the names the registries give them.

/** ProtocolVersion values (RFC 6101 §5.1, RFC 2246/4346/5246 §6.2.1, RFC 8446 §4.2.1). */
export const protocolVersions = {
  SSLv3: 0x0300,
  'TLSv1.0': 0x0301,
  'TLSv1.1': 0x0302,
  'TLSv1.2': 0x0303,
  'TLSv1.3': 0x0304,
} as const;

export type TlsVersionName = keyof typeof protocolVersions;

/** SSL 2.0 puts 0x0002 in CLIENT-VERSION and SERVER-VERSION (draft-ietf-tls-ssl-version2 §2). */
export const SSL2_VERSION = 0x0002;

/** The name of a ProtocolVersion, or undefined for a value no version has. */
export function versionName(code: number): TlsVersionName | 'SSLv2' | undefined {
  if (code === SSL2_VERSION) return 'SSLv2';
  return (Object.keys(protocolVersions) as TlsVersionName[]).find((name) => protocolVersions[name] === code);
}

/** ContentType (RFC 8446 §5.1; heartbeat RFC 6520 §2). */
export const contentTypes = {
  change_cipher_spec: 20,
  alert: 21,
  handshake: 22,
  application_data: 23,
  heartbeat: 24,
} as const;

/** HandshakeType (RFC 8446 §4, RFC 5246 §7.4, RFC 6066 §8). */
export const handshakeTypes = {
  hello_request: 0,
  client_hello: 1,
  server_hello: 2,
  new_session_ticket: 4,
  end_of_early_data: 5,
  encrypted_extensions: 8,
  certificate: 11,
  server_key_exchange: 12,
  certificate_request: 13,
  server_hello_done: 14,
  certificate_verify: 15,
  client_key_exchange: 16,
  finished: 20,
  certificate_status: 22,
  key_update: 24,
  message_hash: 254,
} as const;

export type HandshakeTypeName = keyof typeof handshakeTypes;

export function handshakeTypeName(type: number): HandshakeTypeName | undefined {
  return (Object.keys(handshakeTypes) as HandshakeTypeName[]).find((name) => handshakeTypes[name] === type);
}

/** ExtensionType (IANA TLS ExtensionType Values; RFC 6066, 7301, 7627, 7685, 8422, 8446, 5746). */
export const extensionTypes = {
  server_name: 0,
  status_request: 5,
  supported_groups: 10,
  ec_point_formats: 11,
  signature_algorithms: 13,
  heartbeat: 15,
  application_layer_protocol_negotiation: 16,
  padding: 21,
  encrypt_then_mac: 22,
  extended_master_secret: 23,
  session_ticket: 35,
  supported_versions: 43,
  psk_key_exchange_modes: 45,
  key_share: 51,
  renegotiation_info: 0xff01,
} as const;

/** Signalling suite values that are not cipher suites. */
export const TLS_EMPTY_RENEGOTIATION_INFO_SCSV = 0x00ff; // RFC 5746 §3.3
export const TLS_FALLBACK_SCSV = 0x5600; // RFC 7507 §2

/** NamedGroup (RFC 8422 §5.1.1, RFC 7919 §2, RFC 8446 §4.2.7, draft-ietf-tls-ecdhe-mlkem). */
export const namedGroups = {
  sect163k1: 1,
  sect163r1: 2,
  sect163r2: 3,
  sect193r1: 4,
  sect193r2: 5,
  sect233k1: 6,
  sect233r1: 7,
  sect239k1: 8,
  sect283k1: 9,
  sect283r1: 10,
  sect409k1: 11,
  sect409r1: 12,
  sect571k1: 13,
  sect571r1: 14,
  secp160k1: 15,
  secp160r1: 16,
  secp160r2: 17,
  secp192k1: 18,
  secp192r1: 19,
  secp224k1: 20,
  secp224r1: 21,
  secp256k1: 22,
  secp256r1: 23,
  secp384r1: 24,
  secp521r1: 25,
  brainpoolP256r1: 26,
  brainpoolP384r1: 27,
  brainpoolP512r1: 28,
  x25519: 29,
  x448: 30,
  brainpoolP256r1tls13: 31,
  brainpoolP384r1tls13: 32,
  brainpoolP512r1tls13: 33,
  ffdhe2048: 256,
  ffdhe3072: 257,
  ffdhe4096: 258,
  ffdhe6144: 259,
  ffdhe8192: 260,
  SecP256r1MLKEM768: 0x11eb,
  X25519MLKEM768: 0x11ec,
  SecP384r1MLKEM1024: 0x11ed,
} as const;

export function groupName(group: number): string | undefined {
  return Object.entries(namedGroups).find(([, code]) => code === group)?.[0];
}

/** SignatureScheme (RFC 8446 §4.2.3; the TLS 1.2 SignatureAndHashAlgorithm pairs of RFC 5246 §7.4.1.4.1). */
export const signatureSchemes = {
  rsa_pkcs1_md5: 0x0101,
  rsa_pkcs1_sha1: 0x0201,
  dsa_sha1: 0x0202,
  ecdsa_sha1: 0x0203,
  rsa_pkcs1_sha224: 0x0301,
  dsa_sha224: 0x0302,
  ecdsa_sha224: 0x0303,
  rsa_pkcs1_sha256: 0x0401,
  dsa_sha256: 0x0402,
  ecdsa_secp256r1_sha256: 0x0403,
  rsa_pkcs1_sha384: 0x0501,
  dsa_sha384: 0x0502,
  ecdsa_secp384r1_sha384: 0x0503,
  rsa_pkcs1_sha512: 0x0601,
  dsa_sha512: 0x0602,
  ecdsa_secp521r1_sha512: 0x0603,
  rsa_pss_rsae_sha256: 0x0804,
  rsa_pss_rsae_sha384: 0x0805,
  rsa_pss_rsae_sha512: 0x0806,
  ed25519: 0x0807,
  ed448: 0x0808,
  rsa_pss_pss_sha256: 0x0809,
  rsa_pss_pss_sha384: 0x080a,
  rsa_pss_pss_sha512: 0x080b,
} as const;

export function signatureSchemeName(scheme: number): string | undefined {
  return Object.entries(signatureSchemes).find(([, code]) => code === scheme)?.[0];
}

/** AlertDescription (RFC 8446 §6, RFC 5246 §7.2, RFC 6101 §5.4.2, RFC 7507 §2, RFC 7301 §3.2). */
export const alertDescriptions = {
  close_notify: 0,
  unexpected_message: 10,
  bad_record_mac: 20,
  decryption_failed: 21,
  record_overflow: 22,
  decompression_failure: 30,
  handshake_failure: 40,
  no_certificate: 41,
  bad_certificate: 42,
  unsupported_certificate: 43,
  certificate_revoked: 44,
  certificate_expired: 45,
  certificate_unknown: 46,
  illegal_parameter: 47,
  unknown_ca: 48,
  access_denied: 49,
  decode_error: 50,
  decrypt_error: 51,
  export_restriction: 60,
  protocol_version: 70,
  insufficient_security: 71,
  internal_error: 80,
  inappropriate_fallback: 86,
  user_canceled: 90,
  no_renegotiation: 100,
  missing_extension: 109,
  unsupported_extension: 110,
  certificate_unobtainable: 111,
  unrecognized_name: 112,
  bad_certificate_status_response: 113,
  bad_certificate_hash_value: 114,
  unknown_psk_identity: 115,
  certificate_required: 116,
  no_application_protocol: 120,
} as const;

export function alertDescriptionName(description: number): string | undefined {
  return Object.entries(alertDescriptions).find(([, code]) => code === description)?.[0];
}

/** SSL 2.0 CIPHER-KIND values (draft-ietf-tls-ssl-version2 Appendix C). */
export const ssl2CipherKinds = {
  SSL_CK_RC4_128_WITH_MD5: 0x010080,
  SSL_CK_RC4_128_EXPORT40_WITH_MD5: 0x020080,
  SSL_CK_RC2_128_CBC_WITH_MD5: 0x030080,
  SSL_CK_RC2_128_CBC_EXPORT40_WITH_MD5: 0x040080,
  SSL_CK_IDEA_128_CBC_WITH_MD5: 0x050080,
  SSL_CK_DES_64_CBC_WITH_MD5: 0x060040,
  SSL_CK_DES_192_EDE3_CBC_WITH_MD5: 0x0700c0,
} as const;

export function ssl2CipherKindName(kind: number): string | undefined {
  return Object.entries(ssl2CipherKinds).find(([, code]) => code === kind)?.[0];
}
