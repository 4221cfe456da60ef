import { randomBytes, randomUUID } from 'node:crypto';

/** A random (version 4) UUID: ids that reveal nothing. */
export function newId(): string {
  return randomUUID();
}

let lastMs = 0;
let counter = 0;

/**
 * A time-ordered (version 7, RFC 9562 §5.7) UUID. Within one process, ids made in the same
 * millisecond keep their order (a 12-bit counter in rand_a), so sorting by id breaks ties of
 * equal timestamps in creation order.
 */
export function newSortableId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    counter += 1;
    if (counter > 0xfff) {
      // more than 4096 ids in one millisecond: borrow the next one
      lastMs += 1;
      counter = 0;
    }
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
