import type { Outcome } from '../core/outcome.ts';
import { domainNameProblem } from '../core/domain-field.ts';
import { quotedTxtStrings } from '../core/txt-strings.ts';
import { describeTlsRptUri, tlsRptRecordName, tlsRptVersion } from './record.ts';

export interface TlsRptGenerateInput {
  domain: string;
  /** Blank rows are skipped (the form starts with one empty row). */
  reportingUris: readonly string[];
}

export interface TlsRptGenerated {
  /** The TXT value, e.g. `v=TLSRPTv1; rua=mailto:tlsrpt@example.com`. */
  record: string;
  /** `_smtp._tls.<domain>` */
  name: string;
  /** The record as one zone-file line. */
  zoneLine: string;
}

/** Builds the `_smtp._tls` TXT record of RFC 8460 §3 from a domain and its reporting URIs. */
export function generateTlsRptRecord(input: TlsRptGenerateInput): Outcome<TlsRptGenerated> {
  const problem = domainNameProblem(input.domain);
  if (problem !== undefined) return { ok: false, error: problem };
  const uris = input.reportingUris.map((uri) => uri.trim()).filter((uri) => uri !== '');
  if (uris.length === 0) return { ok: false, error: 'Enter at least one reporting URI (mailto: or https:)' };
  for (const uri of uris) {
    const { problem: uriProblem } = describeTlsRptUri(uri);
    if (uriProblem !== null) return { ok: false, error: `Reporting URI ${uriProblem}` };
    // a comma or '!' inside a URI would split it (RFC 8460 §3 requires them percent-encoded)
    if (/[,!]/.test(uri))
      return { ok: false, error: `Reporting URI '${uri}' contains ',' or '!': percent-encode it (%2C, %21)` };
  }
  const unique = [...new Set(uris)];
  const record = `v=${tlsRptVersion}; rua=${unique.join(',')}`;
  const name = tlsRptRecordName(input.domain);
  return { ok: true, result: { record, name, zoneLine: `${name}. IN TXT ${quotedTxtStrings(record)}` } };
}
