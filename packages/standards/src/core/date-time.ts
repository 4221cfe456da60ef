/** A date-time of RFC 3339 §5.6 as read from text. */
export interface DateTimeValue {
  /** The instant in milliseconds since the epoch (UTC). */
  time: number;
  /** Separated by a space instead of 'T', which RFC 3339 §5.6 allows only as an application's choice. */
  spaceSeparator: boolean;
}

const pattern = /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses an RFC 3339 date-time (`2026-12-31T23:59:59Z`, `…+02:00`, `…t…z`, fractions allowed).
 * Returns null for anything else: dates without a time or time zone, RFC 5322 dates, or values
 * out of range (month 13, 31 April, hour 24). A leap second (:60) is accepted and counted as :59.
 */
export function parseRfc3339(value: string): DateTimeValue | null {
  const match = pattern.exec(value);
  if (!match) return null;
  const [, y, mo, d, separator, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMins = Number(zone.slice(4, 6));
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), Math.floor(Number(`0${fraction ?? ''}`) * 1000));
  return { time: date.getTime() - offsetMinutes * 60_000, spaceSeparator: separator === ' ' };
}

/** `now` plus one calendar year; 29 February becomes 28 February, as python-dateutil's relativedelta does. */
export function addOneYear(now: Date): Date {
  const next = new Date(now.getTime());
  const day = now.getUTCDate();
  next.setUTCDate(1);
  next.setUTCFullYear(now.getUTCFullYear() + 1);
  next.setUTCDate(Math.min(day, daysInMonth(next.getUTCFullYear(), next.getUTCMonth() + 1)));
  return next;
}

/** UTC `YYYY-MM-DDTHH:MM:SSZ`, the form generated files use. */
export function formatRfc3339Utc(time: number): string {
  return new Date(Math.floor(time / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
