export type UriCheck =
  | { kind: 'ok'; scheme: string }
  /** No scheme: not a URI at all (a bare email address, a path). */
  | { kind: 'no-scheme' }
  | { kind: 'invalid'; scheme: string; reason: string };

const schemePattern = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// RFC 3986 §2: unreserved, reserved (gen-delims and sub-delims) and '%'
const uriCharacters = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/**
 * Checks a field value against the URI syntax of RFC 3986 §3: a scheme, then only characters a
 * URI may contain, well-formed percent escapes, at most one '#', and for http(s) an authority
 * with a host. Internationalised forms (IRIs) must be converted first, as RFC 3987 §3.1 does.
 */
export function checkUri(value: string): UriCheck {
  const scheme = schemePattern.exec(value)?.[1];
  if (scheme === undefined) return { kind: 'no-scheme' };
  const lower = scheme.toLowerCase();
  const rest = value.slice(scheme.length + 1);
  const bad = [...rest].find((c) => !uriCharacters.test(c));
  if (bad !== undefined) {
    const shown = bad === ' ' ? 'a space' : bad === '\t' ? 'a tab' : `'${bad}'`;
    return {
      kind: 'invalid',
      scheme: lower,
      reason: `a URI cannot contain ${shown}${/\s/.test(bad) ? '' : ' (percent-encode it)'}`,
    };
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(rest)) {
    return { kind: 'invalid', scheme: lower, reason: "'%' must start a percent-encoded octet such as %20" };
  }
  if (rest.split('#').length > 2)
    return { kind: 'invalid', scheme: lower, reason: "a URI has at most one '#'" };
  if (lower === 'http' || lower === 'https') {
    const authority = /^\/\/([^/?#]*)/.exec(rest)?.[1];
    const host = authority?.replace(/^[^@]*@/, '').replace(/:\d*$/, '');
    if (!host)
      return {
        kind: 'invalid',
        scheme: lower,
        reason: `an ${lower} URI needs a host: ${lower}://example.com/…`,
      };
    // what a browser or HTTP client would refuse: a bad port, an unclosed IPv6 literal, an invalid host
    if (!URL.canParse(value)) {
      return { kind: 'invalid', scheme: lower, reason: 'the host or port is not valid' };
    }
  }
  if (lower === 'mailto' && !/^[^@?]+@[^@?]+/.test(decodeURIComponentSafe(rest))) {
    return { kind: 'invalid', scheme: lower, reason: 'a mailto: URI needs an email address (RFC 6068)' };
  }
  if (lower === 'tel' && !/^\+?[0-9A-Fa-f*#().-]*[0-9]/.test(rest)) {
    return {
      kind: 'invalid',
      scheme: lower,
      reason: 'a tel: URI needs a phone number, e.g. tel:+1-201-555-0123 (RFC 3966)',
    };
  }
  return { kind: 'ok', scheme: lower };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
