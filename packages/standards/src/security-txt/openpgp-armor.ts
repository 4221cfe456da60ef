import { decodeBase64 } from '../core/base64.ts';
import type { Diagnostic } from '../core/diagnostic.ts';

/** What a signature packet of a cleartext-signed file says about itself (RFC 9580 §5.2). */
export interface OpenPgpSignatureInfo {
  /** Signature packet version: 3, 4 or 6. */
  version: number;
  /** 0x00 binary or 0x01 text document (RFC 9580 §5.2.1). */
  signatureType: number;
  publicKeyAlgorithm: number;
  /** Text name of RFC 9580 §9.5, e.g. `SHA256`, or `hash #n` for an unknown id. */
  hashAlgorithm: string;
  /** Issuer key ID as 16 upper-case hex digits, when the packet names one. */
  keyId: string | null;
  /** Issuer fingerprint in upper-case hex, when the packet carries one (subpacket 33). */
  fingerprint: string | null;
  /** Signature creation time (ISO 8601, UTC), when present. */
  created: string | null;
}

/** A line of the armoured signature block with its position, as the parser hands it over. */
export interface ArmorLine {
  number: number;
  start: number;
  end: number;
  text: string;
}

/** RFC 9580 §9.5 hash algorithm ids and their text names (also the values of the Hash armour header). */
export const openPgpHashNames: Readonly<Record<number, string>> = {
  1: 'MD5',
  2: 'SHA1',
  3: 'RIPEMD160',
  8: 'SHA256',
  9: 'SHA384',
  10: 'SHA512',
  11: 'SHA224',
  12: 'SHA3-256',
  14: 'SHA3-512',
};

/** Hashes RFC 9580 §9.5 forbids for new signatures. */
export const weakOpenPgpHashes: ReadonlySet<string> = new Set(['MD5', 'SHA1', 'RIPEMD160']);

const packetNames: Readonly<Record<number, string>> = {
  1: 'public-key encrypted session key',
  2: 'signature',
  3: 'symmetric-key encrypted session key',
  4: 'one-pass signature',
  5: 'secret-key',
  6: 'public-key',
  7: 'secret-subkey',
  8: 'compressed data',
  9: 'symmetrically encrypted data',
  10: 'marker',
  11: 'literal data',
  12: 'trust',
  13: 'user ID',
  14: 'public-subkey',
  17: 'user attribute',
  18: 'encrypted and integrity protected data',
  21: 'padding',
};

const ARMOR_RFC = 'RFC 9580 §6.2';
const armourFix =
  'Sign the file again (gpg --clearsign security.txt) and publish the output unchanged: the block must be -----BEGIN PGP SIGNATURE-----, optional headers, an empty line, the base64 data, -----END PGP SIGNATURE-----.';

/** CRC-24 of RFC 9580 §6.1.1, the checksum of ASCII armour. */
export function crc24(bytes: Uint8Array): number {
  let crc = 0xb704ce;
  for (const byte of bytes) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function lineDiagnostic(
  line: ArmorLine,
  severity: Diagnostic['severity'],
  code: string,
  message: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  return {
    severity,
    code,
    message,
    line: line.number,
    span: { start: line.start, end: line.end },
    ...extra,
  };
}

/**
 * Reads the armoured signature block of a cleartext-signed file (RFC 9580 §6.2, §7): armour
 * headers, the empty line, base64 data, the optional CRC-24 checksum, then the packets inside.
 * `lines` runs from `-----BEGIN PGP SIGNATURE-----` to `-----END PGP SIGNATURE-----`, both included.
 *
 * Codes follow sectxt: `pgp_data_error` when the armour is broken, `pgp_error` when the data is no
 * OpenPGP packet sequence, `pgp_signature_error` when a packet is not a usable document signature.
 * Nothing here proves who signed: that takes the signer's key (see `OpenPgpVerifier`).
 */
export function readSignatureArmor(
  lines: readonly ArmorLine[],
  hashHeaders: readonly string[],
): { signatures: OpenPgpSignatureInfo[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const begin = lines[0];
  const body = lines.slice(1, -1);
  if (!begin) return { signatures: [], diagnostics };

  // armour headers ("Version: …", "Comment: …") until the empty line
  let i = 0;
  while (i < body.length && body[i]!.text.trim() !== '' && /^[^\s:]+: /.test(body[i]!.text)) i++;
  const separator = body[i];
  if (separator && separator.text.trim() === '') {
    i++;
  } else {
    const at = separator ?? begin;
    diagnostics.push(
      lineDiagnostic(
        at,
        'error',
        'pgp_data_error',
        'The signature armour has no empty line between its headers and the base64 data',
        { requirement: 'MUST', rfc: ARMOR_RFC, fix: armourFix },
      ),
    );
    return { signatures: [], diagnostics };
  }

  let data = '';
  let checksum: { value: string; line: ArmorLine } | null = null;
  for (; i < body.length; i++) {
    const line = body[i]!;
    const text = line.text.trim();
    if (text === '') continue;
    if (checksum) {
      diagnostics.push(
        lineDiagnostic(line, 'error', 'pgp_data_error', 'Data after the armour checksum line', {
          requirement: 'MUST',
          rfc: ARMOR_RFC,
          fix: armourFix,
        }),
      );
      return { signatures: [], diagnostics };
    }
    if (/^=[A-Za-z0-9+/]{4}$/.test(text)) {
      checksum = { value: text.slice(1), line };
      continue;
    }
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
      diagnostics.push(
        lineDiagnostic(
          line,
          'error',
          'pgp_data_error',
          'This line of the signature is not base64: the armour was altered or cut',
          { requirement: 'MUST', rfc: ARMOR_RFC, fix: armourFix },
        ),
      );
      return { signatures: [], diagnostics };
    }
    data += text;
  }
  if (data === '') {
    diagnostics.push(
      lineDiagnostic(begin, 'error', 'pgp_data_error', 'The signature block holds no signature data', {
        requirement: 'MUST',
        rfc: ARMOR_RFC,
        fix: armourFix,
      }),
    );
    return { signatures: [], diagnostics };
  }
  const decoded = decodeBase64(data);
  if (!decoded.ok) {
    diagnostics.push(
      lineDiagnostic(
        begin,
        'error',
        'pgp_data_error',
        `The signature data is not valid base64: ${decoded.error}`,
        {
          requirement: 'MUST',
          rfc: ARMOR_RFC,
          fix: armourFix,
        },
      ),
    );
    return { signatures: [], diagnostics };
  }
  if (checksum) {
    const expected = decodeBase64(checksum.value);
    const sum = crc24(decoded.bytes);
    const written = expected.ok
      ? (expected.bytes[0]! << 16) | (expected.bytes[1]! << 8) | expected.bytes[2]!
      : -1;
    if (written !== sum) {
      // RFC 9580 §6.1 tells decoders to ignore the checksum, so this alone breaks nothing
      diagnostics.push(
        lineDiagnostic(
          checksum.line,
          'warning',
          'pgp_checksum_mismatch',
          'The armour checksum (CRC-24) does not match the signature data: the signature was probably damaged in transit',
          { rfc: 'RFC 9580 §6.1', fix: armourFix },
        ),
      );
    }
  }

  const signatures: OpenPgpSignatureInfo[] = [];
  const packets = readPackets(decoded.bytes);
  if ('error' in packets) {
    diagnostics.push(
      lineDiagnostic(
        begin,
        'error',
        'pgp_error',
        `The signature data is not an OpenPGP packet sequence: ${packets.error}`,
        {
          requirement: 'MUST',
          rfc: 'RFC 9580 §4.2',
          fix: armourFix,
        },
      ),
    );
    return { signatures, diagnostics };
  }
  for (const [index, packet] of packets.list.entries()) {
    const which = packets.list.length > 1 ? `Packet ${index + 1}` : 'The packet';
    if (packet.tag !== 2) {
      diagnostics.push(
        lineDiagnostic(
          begin,
          'error',
          'pgp_signature_error',
          `${which} of the signature block is a ${packetNames[packet.tag] ?? `type ${packet.tag}`} packet, not a signature`,
          { requirement: 'MUST', rfc: 'RFC 9580 §7', fix: armourFix },
        ),
      );
      continue;
    }
    const info = readSignaturePacket(packet.body);
    if ('error' in info) {
      diagnostics.push(
        lineDiagnostic(
          begin,
          'error',
          'pgp_signature_error',
          `${which} is a malformed signature: ${info.error}`,
          {
            requirement: 'MUST',
            rfc: 'RFC 9580 §5.2',
            fix: armourFix,
          },
        ),
      );
      continue;
    }
    signatures.push(info);
    if (info.signatureType !== 0x00 && info.signatureType !== 0x01) {
      diagnostics.push(
        lineDiagnostic(
          begin,
          'error',
          'pgp_signature_error',
          `${which} is a signature of type 0x${info.signatureType.toString(16).padStart(2, '0')}, not a document signature`,
          { requirement: 'MUST', rfc: 'RFC 9580 §5.2.1', fix: armourFix },
        ),
      );
    }
    if (hashHeaders.length > 0 && !hashHeaders.includes(info.hashAlgorithm)) {
      diagnostics.push(
        lineDiagnostic(
          begin,
          'error',
          'pgp_signature_error',
          `The signature uses ${info.hashAlgorithm}, but the Hash header of the signed message says ${hashHeaders.join(', ')}`,
          { requirement: 'MUST', rfc: 'RFC 9580 §7.1', fix: armourFix },
        ),
      );
    }
    if (weakOpenPgpHashes.has(info.hashAlgorithm)) {
      diagnostics.push(
        lineDiagnostic(
          begin,
          'warning',
          'pgp_weak_hash',
          `The signature uses ${info.hashAlgorithm}, a hash that MUST NOT be used for new signatures`,
          {
            requirement: 'MUST NOT',
            rfc: 'RFC 9580 §9.5',
            fix: 'Sign again with SHA-256 or stronger (gpg --clearsign --digest-algo SHA512).',
          },
        ),
      );
    }
  }
  return { signatures, diagnostics };
}

interface Packet {
  tag: number;
  body: Uint8Array;
}

/** Splits bytes into packets by their headers (RFC 9580 §4.2: OpenPGP and legacy formats). */
function readPackets(bytes: Uint8Array): { list: Packet[] } | { error: string } {
  const list: Packet[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const first = bytes[offset]!;
    if ((first & 0x80) === 0) return { error: `byte ${offset} is not a packet header (bit 7 is clear)` };
    let tag: number;
    let length: number;
    let headerLength: number;
    if (first & 0x40) {
      tag = first & 0x3f;
      const o1 = bytes[offset + 1];
      if (o1 === undefined) return { error: 'the data ends inside a packet header' };
      if (o1 < 192) {
        length = o1;
        headerLength = 2;
      } else if (o1 < 224) {
        const o2 = bytes[offset + 2];
        if (o2 === undefined) return { error: 'the data ends inside a packet header' };
        length = ((o1 - 192) << 8) + o2 + 192;
        headerLength = 3;
      } else if (o1 === 255) {
        if (offset + 6 > bytes.length) return { error: 'the data ends inside a packet header' };
        length = new DataView(bytes.buffer, bytes.byteOffset + offset + 2, 4).getUint32(0);
        headerLength = 6;
      } else {
        return { error: 'a partial body length, which signature packets may not use' };
      }
    } else {
      tag = (first >> 2) & 0x0f;
      const lengthType = first & 0x03;
      if (lengthType === 3) return { error: 'a legacy packet of indeterminate length' };
      const size = 1 << lengthType;
      if (offset + 1 + size > bytes.length) return { error: 'the data ends inside a packet header' };
      length = 0;
      for (let i = 0; i < size; i++) length = length * 256 + bytes[offset + 1 + i]!;
      headerLength = 1 + size;
    }
    const start = offset + headerLength;
    if (start + length > bytes.length) {
      return { error: `a packet says it is ${length} bytes long, but only ${bytes.length - start} follow` };
    }
    list.push({ tag, body: bytes.subarray(start, start + length) });
    offset = start + length;
  }
  if (list.length === 0) return { error: 'no packets' };
  return { list };
}

function hashName(id: number): string {
  return openPgpHashNames[id] ?? `hash #${id}`;
}

interface Subpackets {
  created: string | null;
  keyId: string | null;
  fingerprint: string | null;
}

/** Reads the subpackets that name the issuer and the creation time (RFC 9580 §5.2.3.7). */
function readSubpackets(area: Uint8Array, found: Subpackets): string | null {
  let offset = 0;
  while (offset < area.length) {
    const o1 = area[offset]!;
    let length: number;
    let lengthSize: number;
    if (o1 < 192) {
      length = o1;
      lengthSize = 1;
    } else if (o1 < 255) {
      const o2 = area[offset + 1];
      if (o2 === undefined) return 'a subpacket length is cut off';
      length = ((o1 - 192) << 8) + o2 + 192;
      lengthSize = 2;
    } else {
      if (offset + 5 > area.length) return 'a subpacket length is cut off';
      length = new DataView(area.buffer, area.byteOffset + offset + 1, 4).getUint32(0);
      lengthSize = 5;
    }
    const start = offset + lengthSize;
    if (length === 0 || start + length > area.length) return 'a subpacket overruns its area';
    const type = area[start]! & 0x7f;
    const data = area.subarray(start + 1, start + length);
    if (type === 2 && data.length === 4 && found.created === null) {
      const seconds = new DataView(data.buffer, data.byteOffset, 4).getUint32(0);
      found.created = new Date(seconds * 1000).toISOString();
    } else if (type === 16 && data.length === 8 && found.keyId === null) {
      found.keyId = hex(data);
    } else if (type === 33 && data.length > 1 && found.fingerprint === null) {
      found.fingerprint = hex(data.subarray(1));
    }
    offset = start + length;
  }
  return null;
}

function readSignaturePacket(body: Uint8Array): OpenPgpSignatureInfo | { error: string } {
  const version = body[0];
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  if (version === 3) {
    if (body.length < 19 || body[1] !== 5)
      return { error: 'a version 3 signature shorter than its fixed fields' };
    return {
      version,
      signatureType: body[2]!,
      created: new Date(view.getUint32(3) * 1000).toISOString(),
      keyId: hex(body.subarray(7, 15)),
      publicKeyAlgorithm: body[15]!,
      hashAlgorithm: hashName(body[16]!),
      fingerprint: null,
    };
  }
  if (version === 4 || version === 6) {
    // v4 counts the subpacket areas in two octets, v6 in four (RFC 9580 §5.2.3)
    const countSize = version === 4 ? 2 : 4;
    let offset = 4;
    const found: Subpackets = { created: null, keyId: null, fingerprint: null };
    for (const area of ['hashed', 'unhashed']) {
      if (offset + countSize > body.length) return { error: `the ${area} subpacket area is cut off` };
      const size = countSize === 2 ? view.getUint16(offset) : view.getUint32(offset);
      offset += countSize;
      if (offset + size > body.length)
        return { error: `the ${area} subpacket area is longer than the packet` };
      const problem = readSubpackets(body.subarray(offset, offset + size), found);
      if (problem) return { error: problem };
      offset += size;
    }
    if (offset + 2 >= body.length) return { error: 'the signature value is missing' };
    let keyId = found.keyId;
    if (!keyId && found.fingerprint) {
      // v4 key IDs are the low 64 bits of the fingerprint, v6 ones the high 64 bits (RFC 9580 §5.5.4)
      keyId = found.fingerprint.length === 40 ? found.fingerprint.slice(24) : found.fingerprint.slice(0, 16);
    }
    return {
      version,
      signatureType: body[1]!,
      publicKeyAlgorithm: body[2]!,
      hashAlgorithm: hashName(body[3]!),
      keyId,
      fingerprint: found.fingerprint,
      created: found.created,
    };
  }
  return {
    error: `version ${version ?? 'none'} is not a signature version this standard defines (3, 4 or 6)`,
  };
}
