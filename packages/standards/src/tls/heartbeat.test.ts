import { describe, expect, it } from 'vitest';
import { heartbeatLeaks, heartbeatRequest } from './heartbeat.ts';
import { readTlsStream } from './records.ts';

describe('heartbeat request (RFC 6520 §4)', () => {
  it('is a heartbeat record whose payload_length claims more than it carries', () => {
    const bytes = heartbeatRequest(0x0302, 0x4000);
    // type 24, version 3.2, length 3: heartbeat_request (1), payload_length 0x4000, no payload
    expect([...bytes]).toEqual([24, 3, 2, 0, 3, 1, 0x40, 0x00]);
    const stream = readTlsStream(bytes);
    expect(stream.ok && stream.result.events).toEqual([
      { kind: 'heartbeat', fragment: Uint8Array.from([1, 0x40, 0]) },
    ]);
  });

  it('carries a payload when given one', () => {
    expect([...heartbeatRequest(0x0303, 2, Uint8Array.from([0xaa, 0xbb]))]).toEqual([
      24, 3, 3, 0, 5, 1, 0, 2, 0xaa, 0xbb,
    ]);
  });
});

describe('a leaking heartbeat response', () => {
  it('is a response longer than header, sent payload and the 16 bytes of padding', () => {
    const leak = new Uint8Array(3 + 0x4000 + 16);
    leak[0] = 2;
    expect(heartbeatLeaks(leak, 0)).toBe(true);
  });

  it('is not an honest echo of what was sent, nor a request', () => {
    const echo = Uint8Array.from([2, 0, 2, 0xaa, 0xbb, ...new Uint8Array(16)]);
    expect(heartbeatLeaks(echo, 2)).toBe(false);
    const request = new Uint8Array(100);
    request[0] = 1;
    expect(heartbeatLeaks(request, 0)).toBe(false);
  });
});
