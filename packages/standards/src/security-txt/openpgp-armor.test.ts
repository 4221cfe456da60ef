import { describe, expect, it } from 'vitest';
import { crc24, readSignatureArmor, type ArmorLine } from './openpgp-armor.ts';
import { sectxtSignatureBlock } from './test-fixtures.ts';

function armorLines(lines: readonly string[]): ArmorLine[] {
  let start = 0;
  return lines.map((text, index) => {
    const line = { number: index + 1, start, end: start + text.length, text };
    start += text.length + 1;
    return line;
  });
}

function base64(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

/** An armoured block around `bytes`, without the optional checksum. */
function block(bytes: number[]): ArmorLine[] {
  return armorLines(['-----BEGIN PGP SIGNATURE-----', '', base64(bytes), '-----END PGP SIGNATURE-----']);
}

/** A version 4 signature packet (new format, tag 2) with the given hash id and hashed subpackets. */
function v4Signature(hash: number, hashed: number[], type = 0x01): number[] {
  const body = [4, type, 22, hash, 0, hashed.length, ...hashed, 0, 0, 0xab, 0xcd, 0, 8, 0xff];
  return [0xc2, body.length, ...body];
}

const codes = (result: ReturnType<typeof readSignatureArmor>) =>
  result.diagnostics.map((d) => [d.code, d.severity, d.line]);

describe('crc24 (RFC 9580 §6.1.1)', () => {
  it('matches the CRC-24/OPENPGP catalogue values', () => {
    expect(crc24(new Uint8Array())).toBe(0xb704ce);
    expect(crc24(new TextEncoder().encode('123456789'))).toBe(0x21cf02);
  });
});

describe('readSignatureArmor', () => {
  it('reads the sectxt signature with its checksum and no finding', () => {
    const result = readSignatureArmor(armorLines(sectxtSignatureBlock), ['SHA256']);
    expect(result.diagnostics).toEqual([]);
    expect(result.signatures).toHaveLength(1);
    expect(result.signatures[0]).toMatchObject({ keyId: '3B3880F3281B5D1D', hashAlgorithm: 'SHA256' });
  });

  it('warns, without rejecting, when the checksum does not match (RFC 9580 §6.1)', () => {
    const lines = sectxtSignatureBlock.map((l) => (l === '=DHXw' ? '=DHXx' : l));
    const result = readSignatureArmor(armorLines(lines), ['SHA256']);
    expect(codes(result)).toEqual([['pgp_checksum_mismatch', 'warning', 8]]);
    expect(result.signatures).toHaveLength(1);
  });

  it('accepts a block without a checksum line', () => {
    const lines = sectxtSignatureBlock.filter((l) => l !== '=DHXw');
    expect(readSignatureArmor(armorLines(lines), []).diagnostics).toEqual([]);
  });

  it('reports a line that is not base64', () => {
    const lines = sectxtSignatureBlock.map((l, i) => (i === 4 ? `${l}!` : l));
    expect(codes(readSignatureArmor(armorLines(lines), []))).toEqual([['pgp_data_error', 'error', 5]]);
  });

  it('requires the empty line after the armour headers', () => {
    const lines = sectxtSignatureBlock.filter((l) => l !== '');
    expect(codes(readSignatureArmor(armorLines(lines), []))).toEqual([['pgp_data_error', 'error', 3]]);
  });

  it('reports a block with no data', () => {
    const lines = armorLines(['-----BEGIN PGP SIGNATURE-----', '', '-----END PGP SIGNATURE-----']);
    expect(codes(readSignatureArmor(lines, []))).toEqual([['pgp_data_error', 'error', 1]]);
  });

  it('reports data after the checksum line', () => {
    const lines = [...sectxtSignatureBlock.slice(0, -1), 'AAAA', sectxtSignatureBlock.at(-1)!];
    expect(codes(readSignatureArmor(armorLines(lines), []))).toEqual([['pgp_data_error', 'error', 9]]);
  });

  it('reports bytes that are not OpenPGP packets', () => {
    expect(codes(readSignatureArmor(block([0x41, 0x42, 0x43]), []))).toEqual([['pgp_error', 'error', 1]]);
    // a packet that claims 200 bytes but carries 3
    expect(codes(readSignatureArmor(block([0xc2, 200, 1, 2, 3]), []))).toEqual([['pgp_error', 'error', 1]]);
  });

  it('reports a packet that is not a signature', () => {
    // literal data packet (tag 11): format 'b', no name, date 0, "hi"
    const literal = [0xcb, 8, 0x62, 0, 0, 0, 0, 0, 0x68, 0x69];
    const result = readSignatureArmor(block(literal), []);
    expect(codes(result)).toEqual([['pgp_signature_error', 'error', 1]]);
    expect(result.diagnostics[0]?.message).toMatch(/literal data packet/);
  });

  it('reports a signature of a non-document type and an unknown version', () => {
    const certification = v4Signature(8, [], 0x13);
    expect(readSignatureArmor(block(certification), []).diagnostics[0]?.message).toMatch(/type 0x13/);
    const v9 = [0xc2, 4, 9, 1, 1, 8];
    expect(readSignatureArmor(block(v9), []).diagnostics[0]?.message).toMatch(/version 9/);
  });

  it('reports a signature whose hash is not the one the Hash header announced', () => {
    const result = readSignatureArmor(block(v4Signature(10, [])), ['SHA256']);
    expect(codes(result)).toEqual([['pgp_signature_error', 'error', 1]]);
    expect(result.diagnostics[0]?.message).toBe(
      'The signature uses SHA512, but the Hash header of the signed message says SHA256',
    );
  });

  it('warns about SHA-1 signatures (RFC 9580 §9.5)', () => {
    const result = readSignatureArmor(block(v4Signature(2, [])), []);
    expect(codes(result)).toEqual([['pgp_weak_hash', 'warning', 1]]);
    expect(result.diagnostics[0]).toMatchObject({ requirement: 'MUST NOT', rfc: 'RFC 9580 §9.5' });
  });

  it('takes the key ID from an issuer fingerprint subpacket (v4: its low 64 bits)', () => {
    const fingerprint = Array.from({ length: 20 }, (_, i) => i + 1);
    const subpacket = [22, 33, 4, ...fingerprint];
    const [signature] = readSignatureArmor(block(v4Signature(8, subpacket)), []).signatures;
    expect(signature?.fingerprint).toBe('0102030405060708090A0B0C0D0E0F1011121314');
    expect(signature?.keyId).toBe('0D0E0F1011121314');
  });

  it('reads a version 6 signature with four-octet subpacket counts (v6 key ID: high 64 bits)', () => {
    const fingerprint = Array.from({ length: 32 }, (_, i) => 0xa0 + i);
    const hashed = [34, 33, 6, ...fingerprint, 5, 2, 0x65, 0x00, 0x00, 0x00];
    const body = [
      6,
      0x01,
      27,
      10,
      0,
      0,
      0,
      hashed.length,
      ...hashed,
      0,
      0,
      0,
      0,
      0x12,
      0x34,
      16,
      ...Array(16).fill(7),
      ...Array(64).fill(9),
    ];
    expect(body.length).toBeLessThan(192);
    const [signature] = readSignatureArmor(block([0xc2, body.length, ...body]), ['SHA512']).signatures;
    expect(signature).toEqual({
      version: 6,
      signatureType: 1,
      publicKeyAlgorithm: 27,
      hashAlgorithm: 'SHA512',
      keyId: 'A0A1A2A3A4A5A6A7',
      fingerprint: fingerprint.map((b) => b.toString(16).toUpperCase()).join(''),
      // 0x65000000 seconds
      created: '2023-09-12T06:06:56.000Z',
    });
  });

  it('reads a two-octet packet length (192 to 8383 bytes)', () => {
    // 200 bytes: first octet 192, second 200 - 192 = 8
    const body = [4, 1, 22, 8, 0, 0, 0, 0, 0xab, 0xcd, ...Array(190).fill(1)];
    expect(body).toHaveLength(200);
    expect(readSignatureArmor(block([0xc2, 192, 8, ...body]), []).signatures).toHaveLength(1);
  });

  it('reads a legacy-format packet header', () => {
    const packet = v4Signature(8, []);
    // old format: 0x80 | tag 2 << 2 | length type 0 (one octet)
    const legacy = [0x88, ...packet.slice(1)];
    expect(readSignatureArmor(block(legacy), []).signatures).toHaveLength(1);
  });
});
