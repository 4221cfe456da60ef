import { describe, expect, it } from 'vitest';
import {
  type EarlyCcsReply,
  type EarlyCcsVerdict,
  changeCipherSpecRecord,
  earlyCcsVerdict,
} from './change-cipher-spec.ts';

/** An alert record as a server sends it: type 21, TLS 1.2, length 2, fatal, `description`. */
const alert = (description: number): EarlyCcsReply => ({
  bytes: Uint8Array.from([21, 3, 3, 0, 2, 2, description]),
  end: 'enough',
});
const silence: EarlyCcsReply = { bytes: new Uint8Array(0), end: 'timeout' };
const closed: EarlyCcsReply = { bytes: new Uint8Array(0), end: 'closed' };

describe('the early ChangeCipherSpec record (RFC 5246 §7.1)', () => {
  it('is content type 20 carrying the single byte 1, in the negotiated version', () => {
    expect([...changeCipherSpecRecord(0x0301)]).toEqual([20, 3, 1, 0, 1, 1]);
    expect([...changeCipherSpecRecord(0x0303)]).toEqual([20, 3, 3, 0, 1, 1]);
  });
});

// testssl.sh 3.0 run_ccs_injection: the verdict rests on the answer to the second CCS
describe('the verdict on the answer to the second early ChangeCipherSpec (CVE-2014-0224)', () => {
  it.each<[string, EarlyCcsReply, EarlyCcsReply, EarlyCcsVerdict]>([
    [
      'patched: unexpected_message to the first, then closed',
      alert(10),
      closed,
      { status: 'ok', answers: ['alert unexpected_message', 'the connection closed'] },
    ],
    [
      'quiet to both (testssl: not vulnerable, timed out)',
      silence,
      silence,
      { status: 'ok', answers: ['no answer', 'no answer'] },
    ],
    [
      'vulnerable: took the first, cannot decrypt the second',
      silence,
      alert(21),
      { status: 'vulnerable', answers: ['no answer', 'alert decryption_failed'] },
    ],
    [
      'vulnerable with an AEAD or stream suite: bad_record_mac',
      silence,
      alert(20),
      { status: 'vulnerable', answers: ['no answer', 'alert bad_record_mac'] },
    ],
    [
      'unexpected_message only to the second',
      silence,
      alert(10),
      { status: 'ok', answers: ['no answer', 'alert unexpected_message'] },
    ],
    [
      'handshake_failure',
      silence,
      alert(40),
      { status: 'ok', answers: ['no answer', 'alert handshake_failure'] },
    ],
    [
      'another alert, which testssl.sh asks to be reported',
      silence,
      alert(80),
      { status: 'unknown', answers: ['no answer', 'alert internal_error'] },
    ],
    [
      'a handshake record instead of an alert',
      silence,
      { bytes: Uint8Array.from([22, 3, 3, 0, 4, 0, 0, 0, 0]), end: 'enough' },
      { status: 'unknown', answers: ['no answer', 'a record of content type 22'] },
    ],
    [
      'bytes that are not TLS',
      silence,
      { bytes: new TextEncoder().encode('HTTP/1.1 400 Bad Request\r\n'), end: 'closed' },
      { status: 'unknown', answers: ['no answer', '26 bytes that are not a TLS record'] },
    ],
  ])('%s', (_name, first, second, verdict) => {
    expect(earlyCcsVerdict(first, second)).toEqual(verdict);
  });
});
