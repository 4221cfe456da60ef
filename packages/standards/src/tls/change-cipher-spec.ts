// The early ChangeCipherSpec probe of CVE-2014-0224 ("CCS injection"), as testssl.sh's
// run_ccs_injection sends and reads it. RFC 5246 §7.1 allows ChangeCipherSpec only after the key
// exchange; OpenSSL before 0.9.8za, 1.0.0m and 1.0.1h took one right after its ServerHelloDone
// and switched to keys made from an empty master secret, so a man in the middle could read and
// forge the session.
import { ByteWriter } from './bytes.ts';
import { alertDescriptions, contentTypes } from './constants.ts';
import { parseAlert, parseRecords } from './records.ts';

/** A ChangeCipherSpec record: the single byte 1 (RFC 5246 §7.1), sent unprotected. */
export function changeCipherSpecRecord(recordVersion: number): Uint8Array {
  return new ByteWriter().u8(contentTypes.change_cipher_spec).u16(recordVersion).u16(1).u8(1).finish();
}

/** What the server sent after one early ChangeCipherSpec, and why the read stopped. */
export interface EarlyCcsReply {
  bytes: Uint8Array;
  /** `enough`: a whole record arrived; `closed`: the server hung up; `timeout`: it kept waiting. */
  end: 'enough' | 'closed' | 'timeout' | 'cap';
}

export interface EarlyCcsVerdict {
  status: 'vulnerable' | 'ok' | 'unknown';
  /** The server's answers to the first and the second ChangeCipherSpec, in words. */
  answers: [string, string];
}

/** `alert unexpected_message`, `the connection closed`, `no answer` … */
export function describeEarlyCcsReply(reply: EarlyCcsReply): string {
  if (reply.bytes.length === 0) return reply.end === 'timeout' ? 'no answer' : 'the connection closed';
  const split = parseRecords(reply.bytes);
  const first = split.ok ? split.result.records[0] : undefined;
  if (first === undefined) return `${reply.bytes.length} bytes that are not a TLS record`;
  if (first.type !== contentTypes.alert) return `a record of content type ${first.type}`;
  const alert = parseAlert(first.fragment.subarray(0, 2));
  return alert.ok ? `alert ${alert.result.descriptionName ?? alert.result.description}` : 'a malformed alert';
}

/**
 * testssl.sh's verdict, read from the answer to the second ChangeCipherSpec (the first one is
 * what a vulnerable server silently takes): a server that switched keys cannot decrypt the second
 * and says decryption_failed (or bad_record_mac); one that refused the first has closed, or keeps
 * waiting, or says unexpected_message or handshake_failure. Where testssl.sh itself cannot tell
 * (any other alert, which it asks to be reported; anything that is not an alert) the verdict is
 * unknown.
 */
export function earlyCcsVerdict(first: EarlyCcsReply, second: EarlyCcsReply): EarlyCcsVerdict {
  const answers: [string, string] = [describeEarlyCcsReply(first), describeEarlyCcsReply(second)];
  if (second.bytes.length === 0) return { status: 'ok', answers };
  const split = parseRecords(second.bytes);
  const record = split.ok ? split.result.records[0] : undefined;
  const alert =
    record?.type === contentTypes.alert && record.fragment.length >= 2
      ? parseAlert(record.fragment.subarray(0, 2))
      : undefined;
  if (alert === undefined || !alert.ok) return { status: 'unknown', answers };
  switch (alert.result.description) {
    case alertDescriptions.decryption_failed:
    case alertDescriptions.bad_record_mac:
      return { status: 'vulnerable', answers };
    case alertDescriptions.unexpected_message:
    case alertDescriptions.handshake_failure:
      return { status: 'ok', answers };
    default:
      return { status: 'unknown', answers };
  }
}
