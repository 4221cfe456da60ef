import { Parser } from 'htmlparser2';

export interface ScriptElement {
  src: string;
  /** null when absent or empty. */
  integrity: string | null;
  crossorigin: string | null;
}

export interface HtmlScan {
  /** Number of `<script>` elements, with or without src. */
  scriptCount: number;
  /** Scripts that have a non-empty src, in document order. */
  scripts: ScriptElement[];
  /** `content` of every `<meta http-equiv="Content-Security-Policy">`. */
  metaCsp: string[];
  /** `content` of the last `<meta name="referrer">`, or null. */
  metaReferrer: string | null;
}

/**
 * One pass over an HTML body collecting what the Observatory reads from it: script elements
 * (Subresource Integrity) and the policies a page sets in `<meta>` (CSP and referrer). The
 * tokenizer is htmlparser2's, the parser the Observatory uses, so the same elements are found
 * (script text and comments are not searched for tags).
 */
export function scanHtml(html: string): HtmlScan {
  const scan: HtmlScan = { scriptCount: 0, scripts: [], metaCsp: [], metaReferrer: null };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script') {
          scan.scriptCount++;
          const src = attributes.src;
          if (src) {
            scan.scripts.push({
              src,
              integrity: attributes.integrity || null,
              crossorigin: attributes.crossorigin || null,
            });
          }
        } else if (name === 'meta') {
          const httpEquiv = attributes['http-equiv'];
          const content = attributes.content;
          if (httpEquiv !== undefined && content !== undefined) {
            if (httpEquiv.trim().toLowerCase() === 'content-security-policy') scan.metaCsp.push(content);
          } else if (attributes.name?.trim().toLowerCase() === 'referrer' && content !== undefined) {
            scan.metaReferrer = content;
          }
        }
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return scan;
}
