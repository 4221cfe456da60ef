import type { BillingInterval } from '../db/schema.ts';

/**
 * The same day and time one interval later, in UTC, clamped to the end of a shorter month:
 * 31 January + 1 month = 28 (or 29) February.
 */
export function addInterval(from: Date, interval: BillingInterval, count = 1): Date {
  const months = interval === 'year' ? 12 * count : count;
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/** `2026-01-15`: the day of an ISO timestamp, as invoices and audit lines name it. */
export function isoDay(timestamp: string | Date): string {
  return (typeof timestamp === 'string' ? new Date(timestamp) : timestamp).toISOString().slice(0, 10);
}

/**
 * The unused share of a period at `now`, in minor units of `amountMinor`, rounded down so the
 * credit never exceeds what was paid.
 */
export function unusedShare(amountMinor: number, start: string, end: string, now: Date): number {
  const total = Date.parse(end) - Date.parse(start);
  const left = Date.parse(end) - now.getTime();
  if (total <= 0 || left <= 0) return 0;
  return Math.floor((amountMinor * Math.min(left, total)) / total);
}
