// The record layer (RFC 5246 §6.2, RFC 8446 §5.1) as a byte stream is read: records split,
// handshake messages reassembled across records and split where several share one (RFC 5246
// §6.2.1, RFC 8446 §5.1), alerts named (RFC 8446 §6). Bad input is a typed error, never a throw.
import type { Outcome } from '../core/outcome.ts';
import { ByteReader } from './bytes.ts';
import {
  type HandshakeTypeName,
  alertDescriptionName,
  contentTypes,
  handshakeTypeName,
} from './constants.ts';

export type WireErrorCode = 'TRUNCATED' | 'MALFORMED' | 'TOO_LARGE' | 'NOT_TLS';

/** What every parser here returns: the value, or a typed error with a message. */
export type WireResult<T> = Outcome<T, { code: WireErrorCode }>;

export function wireError(
  code: WireErrorCode,
  error: string,
): { ok: false; error: string; code: WireErrorCode } {
  return { ok: false, error, code };
}

export interface TlsRecord {
  type: number;
  version: number;
  fragment: Uint8Array;
}

/** TLSCiphertext may carry 2^14 + 2048 bytes (RFC 5246 §6.2.3); anything longer is not TLS. */
export const MAX_RECORD_LENGTH = 16384 + 2048;
/** The largest handshake message this reader reassembles (certificate chains stay far below). */
export const MAX_HANDSHAKE_LENGTH = 1 << 20;

/**
 * Splits bytes into whole records. `rest` is the tail of a record not complete yet; an error is
 * returned for a header no TLS peer sends (unknown content type, major version other than 3,
 * oversized length).
 */
export function parseRecords(bytes: Uint8Array): WireResult<{ records: TlsRecord[]; rest: Uint8Array }> {
  const reader = new ByteReader(bytes);
  const records: TlsRecord[] = [];
  while (reader.remaining >= 5) {
    const start = reader.offset;
    const type = reader.u8() ?? 0;
    const version = reader.u16() ?? 0;
    const length = reader.u16() ?? 0;
    if (type < contentTypes.change_cipher_spec || type > contentTypes.heartbeat)
      return wireError('NOT_TLS', `content type ${type} at byte ${start} is not a TLS record`);
    if (version >> 8 !== 3)
      return wireError(
        'NOT_TLS',
        `record version 0x${version.toString(16).padStart(4, '0')} at byte ${start}`,
      );
    if (length > MAX_RECORD_LENGTH)
      return wireError('TOO_LARGE', `record of ${length} bytes at byte ${start} exceeds 2^14 + 2048`);
    const fragment = reader.take(length);
    if (fragment === undefined) {
      reader.offset = start;
      break;
    }
    records.push({ type, version, fragment });
  }
  return { ok: true, result: { records, rest: reader.rest() } };
}

export interface HandshakeMessage {
  type: number;
  name: HandshakeTypeName | undefined;
  /** The message body, without the 4-byte header. */
  body: Uint8Array;
  /** The record version of the record the message began in. */
  recordVersion: number;
}

export interface Alert {
  level: number;
  levelName: 'warning' | 'fatal' | undefined;
  description: number;
  descriptionName: string | undefined;
}

export function parseAlert(fragment: Uint8Array): WireResult<Alert> {
  if (fragment.length !== 2) return wireError('MALFORMED', `an alert is 2 bytes, not ${fragment.length}`);
  const level = fragment[0] ?? 0;
  const description = fragment[1] ?? 0;
  return {
    ok: true,
    result: {
      level,
      levelName: level === 1 ? 'warning' : level === 2 ? 'fatal' : undefined,
      description,
      descriptionName: alertDescriptionName(description),
    },
  };
}

export type TlsEvent =
  | { kind: 'handshake'; message: HandshakeMessage }
  | { kind: 'alert'; alert: Alert }
  | { kind: 'change-cipher-spec' }
  /** application_data, or a handshake record after ChangeCipherSpec: protected, not read here. */
  | { kind: 'encrypted'; type: number; length: number }
  | { kind: 'heartbeat'; fragment: Uint8Array };

/**
 * Reads what a server sends, chunk by chunk as it arrives. Each `push` returns the events the
 * bytes so far complete; after an error the reader stays failed.
 */
export class TlsReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private handshake: Uint8Array = new Uint8Array(0);
  private handshakeVersion = 0;
  private protectedFromNow = false;
  private failure: { ok: false; error: string; code: WireErrorCode } | undefined;

  /** Bytes held back: a record or handshake message not complete yet. */
  get pending(): number {
    return this.buffer.length + this.handshake.length;
  }

  /** True when a handshake message is begun but not complete: more bytes are needed. */
  get midMessage(): boolean {
    return this.handshake.length > 0;
  }

  push(chunk: Uint8Array): WireResult<TlsEvent[]> {
    if (this.failure) return this.failure;
    this.buffer = concat(this.buffer, chunk);
    const split = parseRecords(this.buffer);
    if (!split.ok) return this.fail(split);
    this.buffer = split.result.rest.slice();
    const events: TlsEvent[] = [];
    for (const record of split.result.records) {
      const problem = this.read(record, events);
      if (problem) return this.fail(problem);
    }
    return { ok: true, result: events };
  }

  private fail(error: { ok: false; error: string; code: WireErrorCode }): WireResult<TlsEvent[]> {
    this.failure = error;
    return error;
  }

  private read(
    record: TlsRecord,
    events: TlsEvent[],
  ): { ok: false; error: string; code: WireErrorCode } | undefined {
    const { type, fragment } = record;
    if (type === contentTypes.handshake && !this.protectedFromNow) {
      if (this.handshake.length === 0) this.handshakeVersion = record.version;
      this.handshake = concat(this.handshake, fragment);
      return this.drainHandshake(events);
    }
    // RFC 8446 §5.1: other record types may not interleave with a fragmented handshake message
    if (this.handshake.length > 0 && type !== contentTypes.handshake)
      return wireError('MALFORMED', 'a record of another type came in the middle of a handshake message');
    switch (type) {
      case contentTypes.alert: {
        if (this.protectedFromNow) {
          events.push({ kind: 'encrypted', type, length: fragment.length });
          return undefined;
        }
        if (fragment.length === 0 || fragment.length % 2 !== 0)
          return wireError('MALFORMED', `an alert record of ${fragment.length} bytes`);
        for (let i = 0; i < fragment.length; i += 2) {
          const alert = parseAlert(fragment.subarray(i, i + 2));
          if (alert.ok) events.push({ kind: 'alert', alert: alert.result });
        }
        return undefined;
      }
      case contentTypes.change_cipher_spec:
        // RFC 5246 §7.1: one byte of value 1
        if (fragment.length !== 1 || fragment[0] !== 1)
          return wireError('MALFORMED', 'a ChangeCipherSpec record is the single byte 1');
        events.push({ kind: 'change-cipher-spec' });
        return undefined;
      case contentTypes.heartbeat:
        events.push({ kind: 'heartbeat', fragment: fragment.slice() });
        return undefined;
      default:
        events.push({ kind: 'encrypted', type, length: fragment.length });
        return undefined;
    }
  }

  /**
   * After a TLS 1.2-or-older ChangeCipherSpec from the server, its handshake records are
   * encrypted (RFC 5246 §7.1): the caller says when, having seen the ChangeCipherSpec event.
   * (TLS 1.3 protects with application_data records, which are reported as encrypted anyway.)
   */
  protectFromNow(): void {
    this.protectedFromNow = true;
  }

  private drainHandshake(events: TlsEvent[]): { ok: false; error: string; code: WireErrorCode } | undefined {
    while (this.handshake.length >= 4) {
      const reader = new ByteReader(this.handshake);
      const type = reader.u8() ?? 0;
      const length = reader.u24() ?? 0;
      if (length > MAX_HANDSHAKE_LENGTH)
        return wireError(
          'TOO_LARGE',
          `a handshake message of ${length} bytes is more than this reader takes`,
        );
      const body = reader.take(length);
      if (body === undefined) return undefined;
      events.push({
        kind: 'handshake',
        message: {
          type,
          name: handshakeTypeName(type),
          body: body.slice(),
          recordVersion: this.handshakeVersion,
        },
      });
      this.handshake = reader.rest().slice();
    }
    return undefined;
  }
}

/**
 * All events of a complete capture at once. `incomplete` says whether the capture ended inside a
 * record or handshake message (a peer that closed or a read cut short).
 */
export function readTlsStream(bytes: Uint8Array): WireResult<{ events: TlsEvent[]; incomplete: boolean }> {
  const reader = new TlsReader();
  const events = reader.push(bytes);
  if (!events.ok) return events;
  return { ok: true, result: { events: events.result, incomplete: reader.pending > 0 } };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
