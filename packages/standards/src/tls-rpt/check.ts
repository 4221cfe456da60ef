import { describeDnsResult, type Resolver } from '../core/resolver.ts';
import { checkTlsRptRecordSet, tlsRptRecordName, validateTlsRptRecord } from './record.ts';
import type { TlsRptValidateResultData } from './schema.ts';

/**
 * The validator of the page and the API: a pasted record is checked as written; a domain's TXT
 * records at `_smtp._tls.<domain>` are looked up and read as a sender would (RFC 8460 §3).
 */
export async function checkTlsRpt(
  input: { record?: string | undefined; domain?: string | undefined },
  resolver?: Resolver,
): Promise<TlsRptValidateResultData> {
  const record = input.record?.trim() ?? '';
  if (record !== '' || input.domain === undefined || resolver === undefined) {
    return { ...validateTlsRptRecord(record), lookup: null };
  }
  const name = tlsRptRecordName(input.domain);
  const answer = await resolver.query(name, 'TXT');
  const records = answer.status === 'ok' ? answer.records.map((txt) => txt.text) : [];
  const { candidates: _candidates, ...result } = checkTlsRptRecordSet(records);
  return { ...result, lookup: { name, records, dns: describeDnsResult(answer) } };
}
