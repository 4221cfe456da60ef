// Domain names as the lab keys, compares and writes them: presentation form in, wire form out.

const textEncoder = new TextEncoder();

/**
 * The labels of a name in presentation format (RFC 1035 §5.1) in octets: `\DDD` is the octet DDD,
 * `\X` is X (`\.` a dot inside a label), any other character is itself (UTF-8 when not ASCII),
 * so a label may hold any octet (RFC 2181 §11). A final dot is dropped; undefined for an empty label.
 */
export function labelsOf(text: string): Uint8Array[] | undefined {
  if (text === '' || text === '.') return [];
  const labels: Uint8Array[] = [];
  let current: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '.') {
      if (current.length === 0) return undefined;
      labels.push(Uint8Array.from(current));
      current = [];
      if (i === text.length - 1) return labels;
    } else if (char === '\\') {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
      if (digits && Number(digits[0]) <= 255) {
        current.push(Number(digits[0]));
        i += 3;
      } else {
        const next = text.codePointAt(i + 1);
        // a digit starts a \DDD escape, which has exactly three, at most 255
        if (next === undefined || (next >= 0x30 && next <= 0x39)) return undefined;
        const escaped = String.fromCodePoint(next);
        current.push(...textEncoder.encode(escaped));
        i += escaped.length;
      }
    } else {
      const whole = String.fromCodePoint(text.codePointAt(i)!);
      current.push(...textEncoder.encode(whole));
      i += whole.length - 1;
    }
  }
  if (current.length === 0) return undefined;
  labels.push(Uint8Array.from(current));
  return labels;
}

/** ASCII letters lower case, printable ASCII as itself, `.` and `\\` escaped, any other octet `\DDD`. */
export function presentLabel(label: Uint8Array): string {
  let out = '';
  for (const octet of label) {
    if (octet === 0x2e || octet === 0x5c) out += `\\${String.fromCharCode(octet)}`;
    else if (octet >= 0x41 && octet <= 0x5a) out += String.fromCharCode(octet + 0x20);
    else if (octet > 0x20 && octet < 0x7f) out += String.fromCharCode(octet);
    else out += `\\${String(octet).padStart(3, '0')}`;
  }
  return out;
}

/**
 * A name in the one form the lab keys and logs names by: lower-case ASCII, no trailing dot, the
 * root as ''. Written as in a zone file, with escapes, or with the octets as they are
 * (`'macro%percent  space.example.test'`).
 */
export function normalizeName(name: string): string {
  const labels = labelsOf(name);
  if (labels === undefined || labels.some((label) => label.length > 63)) {
    throw new Error(`lab DNS: bad name ${JSON.stringify(name)}`);
  }
  return labels.map(presentLabel).join('.');
}

/** The labels of a normalized name, escapes kept (a `\.` does not split). */
export function splitName(name: string): string[] {
  return name === '' ? [] : (name.match(/(?:\\.|[^.\\])+/g) ?? []);
}

export function parentOf(name: string): string | undefined {
  return name === '' ? undefined : splitName(name).slice(1).join('.');
}

export function isWithin(name: string, apex: string): boolean {
  if (apex === '' || name === apex) return true;
  const labels = splitName(name);
  const apexLabels = splitName(apex);
  return labels.length > apexLabels.length && labels.slice(-apexLabels.length).join('.') === apex;
}

/** A name's wire form, octet for octet (dns-packet writes labels as UTF-8 text and splits at every dot). */
export function wireName(name: string): Buffer {
  const parts: Uint8Array[] = [];
  for (const label of labelsOf(name) ?? []) parts.push(Uint8Array.of(label.length), label);
  parts.push(Uint8Array.of(0));
  return Buffer.concat(parts);
}
