import { hashToken } from './tokens.ts';

/** Failed sign-ins allowed per address before each further one makes it wait. */
export const FREE_FAILURES = 5;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 60 * 60 * 1000;
/** A failure older than this no longer counts. */
export const FORGET_FAILURES_AFTER_MS = 24 * 60 * 60 * 1000;
export const UNLOCK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The throttle's key of an address, whether or not an account has it: its SHA-256, so the table names no one. */
export function throttleKey(normalisedEmail: string): string {
  return hashToken(`login:${normalisedEmail}`);
}

/** How long the address waits after its `failures`th failure: 0, then 30 s doubling up to an hour. */
export function lockDelayMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES), MAX_DELAY_MS);
}
