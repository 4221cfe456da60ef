/**
 * Punycode (RFC 3492) and the A-label form of internationalised domain names (RFC 5890 §2.3.2.1),
 * pure so the browser and the server turn a name typed in Unicode into the same A-labels.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const DELIMITER = '-';
export const aLabelPrefix = 'xn--';

// RFC 3492 §6.1
function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

// RFC 3492 §5: 0-25 are a-z, 26-35 are 0-9
const digitChar = (digit: number): string => String.fromCharCode(digit < 26 ? 97 + digit : 22 + digit);

function charDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 22;
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 97 && code <= 122) return code - 97;
  return BASE;
}

/** RFC 3492 §6.3: the Punycode of a label's code points (without the xn-- prefix). */
export function punycodeEncode(input: string): string {
  const points = Array.from(input, (char) => char.codePointAt(0) ?? 0);
  let output = points
    .filter((point) => point < 0x80)
    .map((point) => String.fromCodePoint(point))
    .join('');
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += DELIMITER;
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < points.length) {
    const next = Math.min(...points.filter((point) => point >= n));
    delta += (next - n) * (handled + 1);
    n = next;
    for (const point of points) {
      if (point < n) delta++;
      if (point !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digitChar(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digitChar(q);
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}

/** RFC 3492 §6.2: the code points of a Punycode string, or null when it is not valid Punycode. */
export function punycodeDecode(input: string): string | null {
  const cut = input.lastIndexOf(DELIMITER);
  const output = Array.from(cut > 0 ? input.slice(0, cut) : '', (char) => char.codePointAt(0) ?? 0);
  if (output.some((point) => point >= 0x80)) return null;
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let at = cut > 0 ? cut + 1 : 0; at < input.length;) {
    const old = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (at >= input.length) return null;
      const digit = charDigit(input.charCodeAt(at++));
      if (digit >= BASE) return null;
      i += digit * weight;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      weight *= BASE - t;
      if (!Number.isSafeInteger(i) || !Number.isSafeInteger(weight)) return null;
    }
    bias = adapt(i - old, output.length + 1, old === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}

export type DomainToAscii = { ok: true; name: string } | { ok: false; error: string };

/**
 * A domain name with every U-label as its A-label (RFC 5891 §4.4), lower-cased and NFC-normalised,
 * without a trailing dot. ASCII labels pass unchanged (lower-cased); an xn-- label must decode.
 * IDNA2008's per-code-point rules (RFC 5892) are not applied: names are compared, not registered.
 */
export function domainToAscii(input: string): DomainToAscii {
  const name = input.trim().replace(/\.$/, '').normalize('NFC').toLowerCase();
  const labels: string[] = [];
  for (const label of name.split('.')) {
    if (/^\p{ASCII}*$/u.test(label)) {
      if (label.startsWith(aLabelPrefix) && label !== `${aLabelPrefix}` && !label.includes('*')) {
        if (punycodeDecode(label.slice(aLabelPrefix.length)) === null)
          return {
            ok: false,
            error: `'${label}' is not a valid A-label: its Punycode does not decode (RFC 3492)`,
          };
      }
      labels.push(label);
      continue;
    }
    if (/[\s\p{Cc}]/u.test(label))
      return { ok: false, error: `'${label}' contains a space or control character` };
    labels.push(`${aLabelPrefix}${punycodeEncode(label)}`);
  }
  return { ok: true, name: labels.join('.') };
}

/** The name with its A-labels shown as Unicode, for display beside the A-label form. */
export function domainToUnicode(name: string): string {
  return name
    .split('.')
    .map((label) => {
      if (!label.toLowerCase().startsWith(aLabelPrefix)) return label;
      return punycodeDecode(label.slice(aLabelPrefix.length)) ?? label;
    })
    .join('.');
}

/** Whether the name has an A-label, i.e. it is an internationalised domain name. */
export function hasALabel(name: string): boolean {
  return name.split('.').some((label) => label.toLowerCase().startsWith(aLabelPrefix));
}
