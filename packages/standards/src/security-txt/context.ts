import type { Diagnostic } from '../core/diagnostic.ts';
import type { SecurityTxtField } from './parse.ts';

/**
 * Where a security.txt file came from, for the checks that need HTTP (RFC 9116 §3). The fetch
 * mode fills this from its response; a pasted file has none. Every member is optional: a check
 * runs only when its fact is known.
 */
export interface SecurityTxtSource {
  /**
   * The URL requested, then the final URL when redirects were followed. Canonical must list one of
   * them (the first or the last of the chain, as sectxt checks).
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
export function securityTxtLocations(host: string): string[] {
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
