// SSL 2.0's answer to a CLIENT-HELLO: SERVER-HELLO or ERROR (draft-ietf-tls-ssl-version2 §2.6,
// §2.7), in a record with a two- or three-byte header (§1.2).
import { ByteReader } from './bytes.ts';
import { SSL2_VERSION, ssl2CipherKindName } from './constants.ts';
import { type WireResult, wireError } from './records.ts';

export type Ssl2Message =
  | {
      kind: 'server-hello';
      sessionIdHit: boolean;
      /** CERTIFICATE-TYPE: 1 is SSL_CT_X509_CERTIFICATE. */
      certificateType: number;
      /** SERVER-VERSION: 0x0002 for SSL 2.0. */
      version: number;
      /** The server's X.509 certificate (DER); empty on a session-id hit. */
      certificate: Uint8Array;
      /** Every CIPHER-KIND the server and client share. */
      cipherKinds: number[];
      cipherNames: (string | undefined)[];
      connectionId: Uint8Array;
    }
  | { kind: 'error'; errorCode: number; errorName: string | undefined };

const errorNames: Record<number, string> = {
  1: 'NO-CIPHER-ERROR',
  2: 'NO-CERTIFICATE-ERROR',
  4: 'BAD-CERTIFICATE-ERROR',
  6: 'UNSUPPORTED-CERTIFICATE-TYPE-ERROR',
};

/** The body of the first SSL 2.0 record in bytes, and how many bytes the record took. */
export function readSsl2Record(bytes: Uint8Array): WireResult<{ body: Uint8Array; length: number }> {
  const reader = new ByteReader(bytes);
  const first = reader.u8();
  const second = reader.u8();
  if (first === undefined || second === undefined) return wireError('TRUNCATED', 'no SSL 2.0 record header');
  if (first >= 20 && first <= 24 && second === 3)
    return wireError('NOT_TLS', 'an SSL 3.0/TLS record, not SSL 2.0');
  let length: number;
  let padding = 0;
  if (first & 0x80) length = ((first & 0x7f) << 8) | second;
  else {
    // three-byte header: 14-bit length, then the padding count (§1.2)
    length = ((first & 0x3f) << 8) | second;
    const pad = reader.u8();
    if (pad === undefined) return wireError('TRUNCATED', 'the three-byte SSL 2.0 header is cut short');
    padding = pad;
  }
  const body = reader.take(length);
  if (body === undefined) return wireError('TRUNCATED', `the SSL 2.0 record of ${length} bytes is cut short`);
  if (padding > length) return wireError('MALFORMED', 'more padding than record');
  return { ok: true, result: { body: body.subarray(0, length - padding), length: reader.offset } };
}

/** The server's first SSL 2.0 message: SERVER-HELLO with its cipher kinds and certificate, or ERROR. */
export function parseSsl2ServerHello(bytes: Uint8Array): WireResult<Ssl2Message> {
  const record = readSsl2Record(bytes);
  if (!record.ok) return record;
  const reader = new ByteReader(record.result.body);
  const type = reader.u8();
  if (type === undefined) return wireError('TRUNCATED', 'an empty SSL 2.0 record');
  if (type === 0) {
    const errorCode = reader.u16();
    if (errorCode === undefined) return wireError('TRUNCATED', 'an SSL 2.0 ERROR without its code');
    return { ok: true, result: { kind: 'error', errorCode, errorName: errorNames[errorCode] } };
  }
  if (type !== 4)
    return wireError('MALFORMED', `SSL 2.0 message type ${type} where SERVER-HELLO (4) was due`);
  const sessionIdHit = reader.u8();
  const certificateType = reader.u8();
  const version = reader.u16();
  const certificateLength = reader.u16();
  const cipherSpecsLength = reader.u16();
  const connectionIdLength = reader.u16();
  if (connectionIdLength === undefined) return wireError('TRUNCATED', 'the SERVER-HELLO header is cut short');
  const certificate = reader.take(certificateLength ?? 0);
  const cipherSpecs = reader.take(cipherSpecsLength ?? 0);
  const connectionId = reader.take(connectionIdLength);
  if (certificate === undefined || cipherSpecs === undefined || connectionId === undefined)
    return wireError('TRUNCATED', 'SERVER-HELLO is shorter than its lengths say');
  if (cipherSpecs.length % 3 !== 0)
    return wireError('MALFORMED', 'CIPHER-SPECS is not a list of 3-byte kinds');
  // §2.6: the connection id is 16 to 32 bytes
  if (connectionId.length < 16 || connectionId.length > 32)
    return wireError('MALFORMED', `a connection id of ${connectionId.length} bytes`);
  const cipherKinds: number[] = [];
  for (let i = 0; i < cipherSpecs.length; i += 3)
    cipherKinds.push(
      ((cipherSpecs[i] ?? 0) << 16) | ((cipherSpecs[i + 1] ?? 0) << 8) | (cipherSpecs[i + 2] ?? 0),
    );
  return {
    ok: true,
    result: {
      kind: 'server-hello',
      sessionIdHit: sessionIdHit === 1,
      certificateType: certificateType ?? 0,
      version: version ?? SSL2_VERSION,
      certificate: certificate.slice(),
      cipherKinds,
      cipherNames: cipherKinds.map(ssl2CipherKindName),
      connectionId: connectionId.slice(),
    },
  };
}
