/** A domain name read from presentation format. */
export interface DnsName {
  /** Label octets, most specific first, already lower-cased (RFC 4034 §6.2). */
  labels: Uint8Array[];
  /** Canonical wire format (RFC 4034 §6.2): length-prefixed lower-case labels ending in the root octet. */
  wire: Uint8Array;
  /** Lower-case absolute presentation form with a trailing dot, escaped per RFC 1035 §5.1. */
  text: string;
}

export type DnsNameResult = { ok: true; name: DnsName } | { ok: false; error: string };

/** RFC 1035 §2.3.4. */
export const maxLabelOctets = 63;
/** RFC 1035 §2.3.4: the whole name in wire format, length octets and root included. */
export const maxNameOctets = 255;

const BACKSLASH = 0x5c;
const DOT = 0x2e;

/**
 * Reads a domain name written in zone-file presentation format (RFC 1035 §5.1): `\X` quotes a
 * character (so `\.` is a dot inside a label) and `\DDD` is one octet in decimal.
 *
 * Pasted names are taken as absolute whether or not they end in a dot: there is no `$ORIGIN` to
 * append, so `@` and non-ASCII text (use the A-label, `xn--…`) are rejected.
 */
export function parseDnsName(input: string): DnsNameResult {
  if (input === '') return { ok: false, error: 'domain name is empty' };
  if (input === '@') {
    return { ok: false, error: "'@' stands for the zone's $ORIGIN, which is not known here" };
  }
  if (input === '.') return { ok: true, name: fromLabels([]) };

  const labels: number[][] = [];
  let label: number[] = [];
  let absolute = false;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c > 0x7e || c < 0x21) {
      return {
        ok: false,
        error:
          c > 0x7e
            ? `non-ASCII character '${input.charAt(i)}': write internationalised names as A-labels (xn--…)`
            : 'domain name contains a space or control character',
      };
    }
    if (c === BACKSLASH) {
      const digits = input.slice(i + 1, i + 4);
      if (/^\d/.test(digits)) {
        if (!/^\d{3}$/.test(digits)) {
          return { ok: false, error: `'\\${digits}': a decimal escape needs exactly three digits (\\DDD)` };
        }
        const value = Number(digits);
        if (value > 255) return { ok: false, error: `'\\${digits}': a decimal escape must be 255 or less` };
        label.push(value);
        i += 3;
      } else {
        if (i + 1 >= input.length) return { ok: false, error: 'domain name ends with a lone backslash' };
        const escaped = input.charCodeAt(i + 1);
        if (escaped > 0x7e) {
          return {
            ok: false,
            error: 'only ASCII characters can follow a backslash; use \\DDD for other octets',
          };
        }
        label.push(escaped);
        i += 1;
      }
    } else if (c === DOT) {
      if (label.length === 0) return { ok: false, error: `empty label in '${input}'` };
      labels.push(label);
      label = [];
      if (i === input.length - 1) absolute = true;
    } else {
      label.push(c);
    }
  }
  if (!absolute) labels.push(label);

  for (const l of labels) {
    if (l.length > maxLabelOctets) {
      return { ok: false, error: `label of ${l.length} octets: a label is at most ${maxLabelOctets} octets` };
    }
  }
  const octets = labels.reduce((sum, l) => sum + 1 + l.length, 1);
  if (octets > maxNameOctets) {
    return { ok: false, error: `name of ${octets} octets in wire format: the maximum is ${maxNameOctets}` };
  }
  return { ok: true, name: fromLabels(labels.map(lowerCased)) };
}

function lowerCased(label: number[]): Uint8Array {
  const octets = new Uint8Array(label.length);
  for (let i = 0; i < label.length; i++) {
    const octet = label[i] ?? 0;
    octets[i] = octet >= 0x41 && octet <= 0x5a ? octet + 0x20 : octet;
  }
  return octets;
}

function fromLabels(labels: Uint8Array[]): DnsName {
  const wire = new Uint8Array(labels.reduce((sum, l) => sum + 1 + l.length, 1));
  let at = 0;
  for (const l of labels) {
    wire[at++] = l.length;
    wire.set(l, at);
    at += l.length;
  }
  wire[at] = 0;
  const text = labels.length === 0 ? '.' : labels.map(labelToText).join('.') + '.';
  return { labels, wire, text };
}

// Characters with a meaning in zone files are quoted; unprintable octets use \DDD (RFC 1035 §5.1).
const quoted = new Set(['.', '\\', '"', '(', ')', ';', '@', '$']);

function labelToText(label: Uint8Array): string {
  let text = '';
  for (const octet of label) {
    const c = String.fromCharCode(octet);
    if (octet <= 0x20 || octet >= 0x7f) text += '\\' + String(octet).padStart(3, '0');
    else text += quoted.has(c) ? '\\' + c : c;
  }
  return text;
}
