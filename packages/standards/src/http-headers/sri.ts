import { getDomain } from 'tldts';
import type { HtmlScan } from './html.ts';
import { worseOf, type TestOutcome } from './outcome.ts';

// best first, as the Observatory ranks them
const sriOrder = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];

const protocolRelative = /^\/\/[^/]/;
const absoluteHttp = /^https?:\/\//;

/** What the page's body gave: scanned HTML, or why there is nothing to scan. */
export type PageBody =
  | { kind: 'html'; scan: HtmlScan }
  | { kind: 'not-html'; mediaType: string }
  | { kind: 'unparseable'; reason: string }
  | { kind: 'missing' };

export interface SriTestInput {
  page: PageBody;
  /** Host name of the site; scripts on its registrable domain count as its own. Null when unknown. */
  site: string | null;
  /** Whether the page itself was loaded over https (relative scripts then are too). */
  pageHttps: boolean;
}

export type SriTestOutcome = TestOutcome | { notEvaluated: string };

/**
 * The Observatory's Subresource Integrity test over the page's `<script src>` elements: scripts
 * from another registrable domain, or protocol-relative ones, should carry an integrity hash and
 * load over https. Returns `notEvaluated` when it cannot tell which scripts are foreign.
 */
export function sriTest({ page, site, pageHttps }: SriTestInput): SriTestOutcome {
  if (page.kind === 'missing') {
    return { notEvaluated: 'The response body is needed to find its <script> elements.' };
  }
  if (page.kind === 'not-html') {
    return {
      result: 'sri-not-implemented-response-not-html',
      pass: true,
      details: [`The response is ${page.mediaType}, not HTML.`],
    };
  }
  if (page.kind === 'unparseable')
    return { result: 'html-not-parseable', pass: false, details: [page.reason] };
  const html = page.scan;
  if (html.scriptCount === 0) {
    return { result: 'sri-not-implemented-but-no-scripts-loaded', pass: true, details: [] };
  }
  // an IP address has no registrable domain: null, and equal to another null, as in the Observatory
  const siteDomain = site === null ? null : getDomain(site);
  const details: string[] = [];
  let result: string | null = null;
  let foreignScripts = false;
  for (const script of html.scripts) {
    const src = script.src;
    let relative = false;
    let protocolRelativeSrc = false;
    let sameSite: boolean;
    if (protocolRelative.test(src)) {
      protocolRelativeSrc = true;
      sameSite = true;
    } else if (absoluteHttp.test(src)) {
      if (site === null) {
        return {
          notEvaluated:
            'The page loads scripts by absolute URL; without the site’s address it cannot be told which are external.',
        };
      }
      sameSite = getDomain(src) === siteDomain;
    } else {
      relative = true;
      sameSite = true;
    }
    const ownOrigin = relative || (sameSite && !protocolRelativeSrc);
    if (!ownOrigin) foreignScripts = true;
    let secureScheme = relative && pageHttps;
    if (!relative && !protocolRelativeSrc) {
      try {
        secureScheme = new URL(src).protocol === 'https:';
      } catch {
        secureScheme = false;
      }
    }

    if (!ownOrigin) {
      const integrity = script.integrity !== null;
      details.push(
        `External script ${src}: ${integrity ? 'integrity set' : 'no integrity'}, ` +
          (secureScheme ? 'https' : protocolRelativeSrc ? 'protocol-relative URL' : 'plain http'),
      );
      if (integrity && !secureScheme) {
        result = worseOf('sri-implemented-but-external-scripts-not-loaded-securely', result, sriOrder);
      } else if (!integrity && secureScheme) {
        result = worseOf('sri-not-implemented-but-external-scripts-loaded-securely', result, sriOrder);
      } else if (!integrity) {
        result = worseOf('sri-not-implemented-and-external-scripts-not-loaded-securely', result, sriOrder);
      }
    } else if (script.integrity !== null && secureScheme && result === null) {
      // integrity on the site's own scripts earns the bonus too
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  result ??= foreignScripts
    ? 'sri-implemented-and-external-scripts-loaded-securely'
    : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin';
  const pass = [
    'sri-implemented-and-all-scripts-loaded-securely',
    'sri-implemented-and-external-scripts-loaded-securely',
    'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
    'sri-not-implemented-but-no-scripts-loaded',
  ].includes(result);
  return { result, pass, details };
}
