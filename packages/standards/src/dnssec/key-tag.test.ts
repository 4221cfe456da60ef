import { describe, expect, it } from 'vitest';
import { toHex } from '../core/hex.ts';
import { dnskeyRdata, keyTag } from './key-tag.ts';

// DNSKEY RDATA of RFC 4034 §5.4, as listed in vectors.md §2.
const rfc4034Rdata =
  '0100030501039e8a247418e318903b215a848acfd5f37f026bd4062db26c774c690968d5d56df8bfda91e6f36d9a279888f41333357c5e6029990d10fdf5663062a512763326980a615ddbf17a05ddfcce7e5fb3abcca05a31b0957452d4521e83870789063115bf97f6c308ccf57cdc9ce7fe10f6ed1bd0cc0660038c50dcdb0feb963c2f17';

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

describe('keyTag (RFC 4034 Appendix B)', () => {
  it('RFC 4034 §5.4 RDATA has key tag 60485', () => {
    expect(keyTag(fromHex(rfc4034Rdata))).toBe(60485);
  });

  it('dnskeyRdata writes flags, protocol, algorithm, key in wire order', () => {
    const key = fromHex(rfc4034Rdata).subarray(4);
    expect(toHex(dnskeyRdata(256, 3, 5, key))).toBe(rfc4034Rdata);
  });

  it.each([
    // By hand: 0x0101 + 0x0308 = 0x0409 = 1033.
    ['01010308', 1033],
    // Odd length: 0x0101 + 0x030d + 0xff00 = 0x1030e; carry folded: 0x030e + 1 = 0x030f = 783.
    ['0101030dff', 783],
    // Algorithm 1 (Appendix B.1): octets at length-3 and length-2, here 0xbeef.
    ['01010301aabbbeef01', 0xbeef],
  ])('%s -> %i', (hex, tag) => {
    expect(keyTag(fromHex(hex))).toBe(tag);
  });
});
