import type { Diagnostic } from '../core/diagnostic.ts';
import type { SecurityTxtField } from './parse.ts';

/**
 * Where a security.txt file came from, for the checks that need HTTP (RFC 9116 §3). The fetch
 * mode fills this from its response; a pasted file has none. Every member is optional: a check
 * runs only when its fact is known.
 */
export interface SecurityTxtSource {
  /**
   * The URLs of the fetch in order: the one requested, each redirect hop, the final one. Canonical
   * must list the first or the last (as sectxt checks); every hop must be https.
   */
  urls?: readonly string[];
  /** The Content-Type header as received; null when the response had none. */
  contentType?: string | null;
  /** Why certificate verification failed when the file was fetched anyway over https. */
  certificateError?: string | null;
}

export const WELL_KNOWN_PATH = '/.well-known/security.txt';
export const LEGACY_PATH = '/security.txt';

/**
 * The URLs to try for a host, in order (RFC 9116 §3, and sectxt's order): the /.well-known/ file
 * over https, the legacy top-level file over https, then both over http so that a file served only
 * over http can be reported as such. Use the first that answers 200.
 */
export function securityTxtLocations(host: string, origin?: string): string[] {
  if (origin !== undefined) return [`${origin}${WELL_KNOWN_PATH}`, `${origin}${LEGACY_PATH}`];
  return [
    `https://${host}${WELL_KNOWN_PATH}`,
    `https://${host}${LEGACY_PATH}`,
    `http://${host}${WELL_KNOWN_PATH}`,
    `http://${host}${LEGACY_PATH}`,
  ];
}

/** The finding of a fetch that found no file at any of {@link securityTxtLocations}. */
export function securityTxtNotFound(tried: readonly string[]): Diagnostic {
  return {
    severity: 'error',
    code: 'no_security_txt',
    message: `No security.txt was found (tried ${tried.join(', ')})`,
    requirement: 'MUST',
    rfc: 'RFC 9116 §3',
    fix: `Publish the file at https://<your domain>${WELL_KNOWN_PATH} with HTTP status 200.`,
  };
}

/**
 * A domain or IP address to fetch from: a host name, or the host of a URL; `origin` when the URL
 * named a port of its own (`http://127.0.0.1:18090`), which is then the only place asked.
 */
export type SecurityTxtFetchHost =
  { ok: true; host: string; origin?: string } | { ok: false; message: string };

const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The host whose security.txt to fetch, from what a user typed: `example.com`, `Example.COM.`,
 * `https://example.com/any/path` and `example.com/.well-known/security.txt` all give `example.com`.
 * The WHATWG URL parser does the work, so an internationalised name becomes its xn-- form and
 * numeric IPv4 forms become dotted ones (which the outbound layer then judges). Without a port the
 * locations of RFC 9116 §3 are on the default https and http ports; a port the user typed is
 * honoured with the scheme typed (https when none was), as that is where the user says the site is.
 */
export function securityTxtFetchHost(input: string): SecurityTxtFetchHost {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'Domain is required' };
  const invalid = {
    ok: false,
    message: 'Enter a domain such as example.com, or a URL such as https://example.com/',
  } as const;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  const url = URL.canParse(withScheme ? text : `https://${text}`)
    ? new URL(withScheme ? text : `https://${text}`)
    : null;
  if (url === null) return invalid;
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      ok: false,
      message: 'Only an http or https URL names a web site: enter its domain, such as example.com',
    };
  if (url.username !== '' || url.password !== '')
    return { ok: false, message: 'Enter the domain without a user name or password' };
  const host = url.hostname.replace(/\.$/, '');
  if (!host.startsWith('[') && !IPV4.test(host) && !HOST_NAME.test(host)) return invalid;
  // the URL parser leaves the port empty when it is the scheme's default
  return url.port === ''
    ? { ok: true, host }
    : { ok: true, host, origin: `${url.protocol}//${host}:${url.port}` };
}

/**
 * Whether a response to one of {@link securityTxtLocations} is the file: status 200, and after a
 * redirect the final URL must still end with the path asked for (so a legacy /security.txt that
 * redirects to /.well-known/security.txt counts, a redirect to a home page does not), as sectxt
 * decides.
 */
export function isSecurityTxtResponse(requestedUrl: string, finalUrl: string, status: number): boolean {
  if (status !== 200) return false;
  if (finalUrl === requestedUrl) return true;
  const requested = URL.canParse(requestedUrl) ? new URL(requestedUrl).pathname : null;
  const final = URL.canParse(finalUrl) ? new URL(finalUrl).pathname : null;
  return requested !== null && final !== null && final.endsWith(requested);
}

function normaliseUrl(url: string): string | null {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

/** Checks of where and how the file was served: location, scheme, certificate, media type, Canonical. */
export function sourceDiagnostics(
  source: SecurityTxtSource,
  fields: readonly SecurityTxtField[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const urls = source.urls ?? [];
  const first = urls[0];
  if (first !== undefined) {
    const parsed = URL.canParse(first) ? new URL(first) : null;
    if (parsed && parsed.pathname === LEGACY_PATH) {
      diagnostics.push({
        severity: 'error',
        code: 'location',
        message: `The file was found at the legacy top-level path ${LEGACY_PATH}, not under /.well-known/`,
        requirement: 'MUST',
        rfc: 'RFC 9116 §3',
        fix: `Serve the file at ${WELL_KNOWN_PATH}; keep ${LEGACY_PATH} only as a redirect to it.`,
      });
    }
    const http = urls.find((url) => /^http:/i.test(url));
    if (http !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'invalid_uri_scheme',
        message: `The file was retrieved over plain http (${http})`,
        requirement: 'MUST',
        rfc: 'RFC 9116 §3',
        fix: 'Serve the file over https only, with a valid certificate.',
      });
    }
  }
  const last = urls.at(-1);
  if (first !== undefined && last !== undefined && URL.canParse(first) && URL.canParse(last)) {
    const from = new URL(first).hostname;
    const to = new URL(last).hostname;
    if (from !== to) {
      diagnostics.push({
        severity: 'warning',
        code: 'redirect_other_host',
        message: `The request for ${first} was redirected to another host, ${to}: the file there speaks for ${to}, and a redirect can lead to a host an attacker controls`,
        rfc: 'RFC 9116 §3, §3.1, §5.2',
        fix: `Serve the file on ${from} itself, or make sure ${to} belongs to the same organisation and list both URLs in Canonical.`,
      });
    }
  }
  if (source.certificateError) {
    diagnostics.push({
      severity: 'error',
      code: 'invalid_cert',
      message: `The https certificate is not valid: ${source.certificateError}`,
      requirement: 'MUST',
      rfc: 'RFC 9116 §3, RFC 9110 §4.3.4',
      fix: 'Serve the site with a certificate that is valid for the host name and chains to a public root.',
    });
  }
  if (source.contentType === null) {
    diagnostics.push({
      severity: 'error',
      code: 'no_content_type',
      message: 'The response has no Content-Type header',
      requirement: 'MUST',
      rfc: 'RFC 9116 §3',
      fix: 'Serve the file as Content-Type: text/plain; charset=utf-8.',
    });
  } else if (source.contentType !== undefined) {
    diagnostics.push(...contentTypeDiagnostics(source.contentType));
  }
  diagnostics.push(...canonicalDiagnostics(urls, fields));
  return diagnostics;
}

function contentTypeDiagnostics(header: string): Diagnostic[] {
  const [type = '', ...parameters] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  const out: Diagnostic[] = [];
  if (mediaType !== 'text/plain') {
    out.push({
      severity: 'error',
      code: 'invalid_media',
      message: `The file is served as ${mediaType || 'an empty media type'}, not text/plain`,
      requirement: 'MUST',
      rfc: 'RFC 9116 §3',
      fix: 'Serve the file as Content-Type: text/plain; charset=utf-8.',
    });
  }
  const charset = parameters
    .map((p) => p.split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  if (charset === undefined) {
    // sectxt accepts this; RFC 9116 §3 asks for the parameter, and text/plain without one means US-ASCII (RFC 2046 §4.1.2)
    out.push({
      severity: 'warning',
      code: 'no_charset',
      message: 'The Content-Type has no charset parameter, so clients may read the file as US-ASCII',
      requirement: 'MUST',
      rfc: 'RFC 9116 §3',
      fix: 'Serve the file as Content-Type: text/plain; charset=utf-8.',
    });
  } else if (charset !== 'utf-8' && charset !== 'csutf8') {
    out.push({
      severity: 'error',
      code: 'invalid_charset',
      message: `The file is served with charset=${charset}, not utf-8`,
      requirement: 'MUST',
      rfc: 'RFC 9116 §3',
      fix: 'Serve the file as Content-Type: text/plain; charset=utf-8.',
    });
  }
  return out;
}

function canonicalDiagnostics(urls: readonly string[], fields: readonly SecurityTxtField[]): Diagnostic[] {
  const canonical = fields.filter((f) => f.key === 'canonical');
  if (urls.length === 0 || canonical.length === 0) return [];
  const listed = new Set(canonical.map((f) => normaliseUrl(f.value) ?? f.value));
  const fetched = [urls[0]!, urls.at(-1)!];
  if (fetched.some((url) => listed.has(normaliseUrl(url) ?? url))) return [];
  return [
    {
      severity: 'error',
      code: 'no_canonical_match',
      message: `The file was fetched from ${[...new Set(fetched)].join(' and ')}, which no Canonical field lists: its contents should not be trusted`,
      requirement: 'SHOULD NOT',
      rfc: 'RFC 9116 §2.5.2',
      fix: `Add 'Canonical: ${fetched[0]}' (and sign the file again), or serve the file from a URL its Canonical fields list.`,
      line: canonical[0]!.line,
    },
  ];
}
