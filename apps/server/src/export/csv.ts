/**
 * CSV (RFC 4180) for files that people open in spreadsheets: CRLF line ends, fields quoted when
 * they hold a comma, a quote or a line break, quotes doubled. A cell that a spreadsheet would
 * read as a formula (starting with =, +, -, @, tab or carriage return) gets a leading single
 * quote, so exported text can never run as a formula (OWASP "CSV injection").
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field, neutralised and quoted as needed; null and undefined are empty. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ending in CRLF. */
export function csvRow(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Lets Excel read the file as UTF-8; other readers skip it. */
export const UTF8_BOM = '\uFEFF';
