import { parseMtaStsPolicy, type TlsRptSampleResultData } from '@rfckit/standards';
import { fetchMtaStsPolicy, lookupMtaStsRecord } from '../../mail-transport/mta-sts-policy.ts';
import { lookupMx } from '../../mail-transport/mx.ts';
import type { NetSession } from '../../net/layer.ts';

export type LivePolicy = TlsRptSampleResultData['policy'];

/** TLSA records of an MX host for SMTP (RFC 7672 §2.2.1), in presentation form, and whether DNSSEC vouched for them. */
async function tlsaOf(net: NetSession, host: string): Promise<{ records: string[]; authenticated: boolean }> {
  const answer = await net.dns.query(`_25._tcp.${host}`, 'TLSA');
  if (answer.status !== 'ok') return { records: [], authenticated: false };
  return {
    records: answer.records.map(
      (record) => `${record.usage} ${record.selector} ${record.matchingType} ${record.certificate}`,
    ),
    authenticated: answer.authenticated,
  };
}

/**
 * The policy a sending MTA would apply to the domain, as a TLS-RPT report names it (RFC 8460 §4.4
 * policy-type): the MTA-STS policy when it is published and fetched within RFC 8461 §3.3's rules,
 * else the MX hosts' DNSSEC-validated TLSA records (RFC 7672), else no-policy-found.
 */
export async function livePolicyOf(
  net: NetSession,
  domain: string,
  signal: AbortSignal,
): Promise<LivePolicy> {
  const notes: string[] = [];
  const record = await lookupMtaStsRecord(net, domain, signal);
  if (record.records.length > 0) {
    const fetched = await fetchMtaStsPolicy(net, domain, signal);
    if (fetched.body !== null) {
      const policy = parseMtaStsPolicy(fetched.body);
      const strings = fetched.body
        .split('\n')
        .map((line) => line.replace(/\r$/, '').trim())
        .filter((line) => line !== '');
      return {
        type: 'sts',
        strings,
        mxHosts: policy.mx.map((entry) => entry.pattern),
        source: 'mta-sts',
        note: `MTA-STS policy fetched from ${fetched.url}${policy.mode === null ? '' : ` (mode ${policy.mode})`}.`,
      };
    }
    notes.push(
      `An MTA-STS record is published, but the policy could not be fetched: ${fetched.refusal?.message ?? 'no answer'}; senders report that as sts-policy-fetch-error.`,
    );
  } else if (record.dnsError !== null) {
    notes.push(`The MTA-STS record could not be looked up: ${record.dnsError}.`);
  }

  const mx = await lookupMx(net, domain, signal);
  const hosts = mx.hosts.map((host) => host.host);
  const tlsa = await Promise.all(hosts.map(async (host) => ({ host, ...(await tlsaOf(net, host)) })));
  const validated = tlsa.filter((entry) => entry.records.length > 0 && entry.authenticated);
  if (validated.length > 0) {
    return {
      type: 'tlsa',
      strings: validated.flatMap((entry) => entry.records),
      mxHosts: validated.map((entry) => entry.host),
      source: 'tlsa',
      note: [
        ...notes,
        `DNSSEC-validated TLSA records found at _25._tcp of ${validated.map((entry) => entry.host).join(', ')}.`,
      ].join(' '),
    };
  }
  const unsigned = tlsa.filter((entry) => entry.records.length > 0);
  if (unsigned.length > 0) {
    notes.push(
      `TLSA records at _25._tcp of ${unsigned.map((entry) => entry.host).join(', ')} are not DNSSEC-validated, so senders do not apply DANE (RFC 7672 §2.2).`,
    );
  }
  if (mx.nullMx) notes.push('The domain has a null MX (RFC 7505): it accepts no mail.');
  else if (mx.dnsError !== null) notes.push(`${mx.dnsError}.`);
  notes.push('No MTA-STS policy or DANE TLSA records apply, so the report says no-policy-found.');
  return {
    type: 'no-policy-found',
    strings: [],
    mxHosts: hosts,
    source: 'none-found',
    note: notes.join(' '),
  };
}
