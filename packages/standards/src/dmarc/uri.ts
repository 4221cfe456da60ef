import type { Span } from '../core/diagnostic.ts';

/**
 * One entry of a `rua`/`ruf` list (RFC 9989 §4.8 `dmarc-urilist`): a URI (RFC 3986) in which
 * commas and exclamation points MUST be percent-encoded, optionally followed by the obsolete size
 * limit `!10m` (`obs-dmarc-report-size`, valid under RFC 7489 §6.4, to be ignored under RFC 9989).
 */
export interface DmarcUri {
  /** The URI as written, without the size suffix. */
  uri: string;
  /** Lower-case scheme, or null when the entry has none (`reports@example.com`). */
  scheme: string | null;
  /** The mailbox of a mailto: URI, percent-decoded. */
  address: string | null;
  /** The destination host (mailto: domain part, or the URI's authority host), lower case. */
  host: string | null;
  /** The obsolete size suffix as written (`10m`), or null. */
  size: string | null;
  /** Why the entry is not a usable reporting URI; null when it is. */
  problem: DmarcUriProblem | null;
  span: Span;
}

export type DmarcUriProblem =
  | { kind: 'empty' }
  | { kind: 'no-scheme'; looksLikeAddress: boolean }
  | { kind: 'bad-syntax'; detail: string }
  | { kind: 'bad-size'; suffix: string }
  | { kind: 'bad-mailto'; detail: string };

const WSP = /[ \t]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** RFC 3986 §2: unreserved, reserved (minus the ',' and '!' DMARC reserves) and '%' of pct-encoded. */
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@$&'()*+;=%]*$/;
const SIZE = /^[0-9]+[kmgt]?$/i;
/** A dot-atom local part (RFC 5322 §3.4.1) or a quoted string, loosely. */
const LOCAL_PART = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"[^"\\]*")$/;
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** Whether `host` is a domain name a mailbox can be at: LDH labels (and `_`), at least two. */
export function isMailDomain(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((label) => HOST_LABEL.test(label));
}

function decodePercent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Reads a `mailto:` URI's first address (RFC 6068 §2). */
function readMailto(rest: string): { address: string; host: string } | { problem: string } {
  const query = rest.indexOf('?');
  const to = query === -1 ? rest : rest.slice(0, query);
  if (to === '') return { problem: 'mailto: has no address' };
  const decoded = decodePercent(to);
  if (decoded === null) return { problem: `'${to}' has a broken %-escape` };
  // RFC 6068 allows several addresses separated by an encoded comma; each is checked
  const addresses = decoded.split(',');
  let first: { address: string; host: string } | undefined;
  for (const address of addresses) {
    const at = address.lastIndexOf('@');
    if (at <= 0 || at === address.length - 1) return { problem: `'${address}' is not an email address` };
    const local = address.slice(0, at);
    const host = address.slice(at + 1).toLowerCase();
    if (!LOCAL_PART.test(local)) return { problem: `'${local}' is not a valid mailbox name` };
    if (!isMailDomain(host)) return { problem: `'${host}' is not a domain name` };
    first ??= { address, host };
  }
  return first ?? { problem: 'mailto: has no address' };
}

/** Splits and reads a `rua`/`ruf` value; `offset` is where the value starts in the record. */
export function parseDmarcUriList(value: string, offset: number): DmarcUri[] {
  const uris: DmarcUri[] = [];
  let start = 0;
  for (;;) {
    const comma = value.indexOf(',', start);
    const end = comma === -1 ? value.length : comma;
    let from = start;
    let to = end;
    while (from < to && WSP.test(value.charAt(from))) from++;
    while (to > from && WSP.test(value.charAt(to - 1))) to--;
    uris.push(readUri(value.slice(from, to), { start: offset + from, end: offset + to }));
    if (comma === -1) break;
    start = comma + 1;
  }
  return uris;
}

function readUri(entry: string, span: Span): DmarcUri {
  const base = { uri: entry, scheme: null, address: null, host: null, size: null, span };
  if (entry === '') return { ...base, problem: { kind: 'empty' } };

  let uri = entry;
  let size: string | null = null;
  const bang = entry.indexOf('!');
  if (bang !== -1) {
    uri = entry.slice(0, bang);
    size = entry.slice(bang + 1);
    if (!SIZE.test(size)) {
      return { ...base, uri, size, problem: { kind: 'bad-size', suffix: entry.slice(bang) } };
    }
  }
  const withSize = { ...base, uri, size };

  const colon = uri.indexOf(':');
  const scheme = colon === -1 ? '' : uri.slice(0, colon);
  if (colon === -1 || !SCHEME.test(scheme)) {
    return { ...withSize, problem: { kind: 'no-scheme', looksLikeAddress: /^[^@\s:]+@[^@\s]+$/.test(uri) } };
  }
  if (!URI_CHARS.test(uri)) {
    const bad = [...uri].find((c) => !URI_CHARS.test(c)) ?? '';
    const detail = /\s/.test(bad) ? 'contains a space' : `contains '${bad}', which must be %-encoded`;
    return { ...withSize, scheme: scheme.toLowerCase(), problem: { kind: 'bad-syntax', detail } };
  }
  const rest = uri.slice(colon + 1);
  const lowerScheme = scheme.toLowerCase();
  if (lowerScheme === 'mailto') {
    const mailbox = readMailto(rest);
    if ('problem' in mailbox) {
      return { ...withSize, scheme: lowerScheme, problem: { kind: 'bad-mailto', detail: mailbox.problem } };
    }
    return { ...withSize, scheme: lowerScheme, address: mailbox.address, host: mailbox.host, problem: null };
  }
  if (rest === '') {
    return {
      ...withSize,
      scheme: lowerScheme,
      problem: { kind: 'bad-syntax', detail: `${scheme}: has nothing after the scheme` },
    };
  }
  let host: string | null = null;
  if (rest.startsWith('//')) {
    try {
      host = new URL(uri).hostname.toLowerCase() || null;
    } catch {
      return {
        ...withSize,
        scheme: lowerScheme,
        problem: { kind: 'bad-syntax', detail: 'is not a well-formed URI' },
      };
    }
  }
  return { ...withSize, scheme: lowerScheme, host, problem: null };
}

/** One sentence on what is wrong with a reporting URI. */
export function describeUriProblem(uri: DmarcUri): string {
  const problem = uri.problem;
  if (problem === null) return '';
  const shown = uri.uri === '' ? 'An empty entry' : `'${uri.uri}'`;
  switch (problem.kind) {
    case 'empty':
      return 'An entry of the list is empty (two commas in a row, or a comma at the end)';
    case 'no-scheme':
      return problem.looksLikeAddress
        ? `${shown} is an email address, not a URI: it needs the mailto: scheme`
        : `${shown} is not a URI: it has no scheme such as mailto:`;
    case 'bad-syntax':
      return `${shown} is not a valid URI: it ${problem.detail}`;
    case 'bad-size':
      return `${shown} ends in '${problem.suffix}', which is not a size limit (! digits and an optional k, m, g or t); an exclamation point in a URI must be written %21`;
    case 'bad-mailto':
      return `${shown} is not a valid mailto: URI: ${problem.detail}`;
  }
}
