/** Where a result type is defined: negotiation failures (RFC 8460 §4.3.1), DANE or MTA-STS policy failures (§4.3.2). */
export type TlsRptResultCategory = 'negotiation' | 'dane' | 'sts';

export interface TlsRptResultTypeInfo {
  type: string;
  category: TlsRptResultCategory;
  rfc: string;
  meaning: string;
  fix: string;
}

/** Every result type RFC 8460 §4.3 registers, with what it means and what the receiving domain can do. */
export const tlsRptResultTypes: readonly TlsRptResultTypeInfo[] = [
  {
    type: 'starttls-not-supported',
    category: 'negotiation',
    rfc: 'RFC 8460 §4.3.1',
    meaning: 'The receiving MX did not offer STARTTLS.',
    fix: 'Enable STARTTLS on every MX host (RFC 3207) and check that nothing in front of it strips the STARTTLS keyword.',
  },
  {
    type: 'certificate-host-mismatch',
    category: 'negotiation',
    rfc: 'RFC 8460 §4.3.1',
    meaning: 'The certificate presented did not match the MX host name.',
    fix: 'Serve a certificate whose subjectAltName holds the MX host name itself.',
  },
  {
    type: 'certificate-expired',
    category: 'negotiation',
    rfc: 'RFC 8460 §4.3.1',
    meaning: 'The certificate has expired.',
    fix: 'Renew the certificate and automate renewal; reload the mail server after renewal.',
  },
  {
    type: 'certificate-not-trusted',
    category: 'negotiation',
    rfc: 'RFC 8460 §4.3.1',
    meaning: 'The certificate was not issued by a trusted authority, or the chain was incomplete.',
    fix: 'Use a certificate from a public CA and send the intermediate certificates with it.',
  },
  {
    type: 'validation-failure',
    category: 'negotiation',
    rfc: 'RFC 8460 §4.3.1',
    meaning: 'Another failure of the TLS negotiation or certificate validation.',
    fix: 'Read the failure-reason-code and additional-information of these entries; test the MX with a TLS scanner.',
  },
  {
    type: 'tlsa-invalid',
    category: 'dane',
    rfc: 'RFC 8460 §4.3.2.1',
    meaning: 'The TLSA record was invalid, or no TLSA record matched the certificate presented.',
    fix: 'Publish TLSA records that match the certificate in use (3 1 1 of the current key), and roll them over before changing keys.',
  },
  {
    type: 'dnssec-invalid',
    category: 'dane',
    rfc: 'RFC 8460 §4.3.2.1',
    meaning: 'No valid DNSSEC records were returned for the TLSA lookup.',
    fix: 'Repair the DNSSEC chain of the MX host zone (signatures, DS at the parent) so that the TLSA answer validates.',
  },
  {
    type: 'dane-required',
    category: 'dane',
    rfc: 'RFC 8460 §4.3.2.1',
    meaning:
      'The sending system is configured to require DANE TLSA records for this domain, and none were found.',
    fix: 'Publish DNSSEC-signed TLSA records at _25._tcp.<mx host>, or ask the sender why it requires DANE.',
  },
  {
    type: 'sts-policy-fetch-error',
    category: 'sts',
    rfc: 'RFC 8460 §4.3.2.2',
    meaning: 'The MTA-STS policy could not be fetched (no answer, an HTTP error, a redirect).',
    fix: 'Serve the policy at https://mta-sts.<domain>/.well-known/mta-sts.txt with status 200 and no redirect.',
  },
  {
    type: 'sts-policy-invalid',
    category: 'sts',
    rfc: 'RFC 8460 §4.3.2.2',
    meaning: 'The MTA-STS policy was fetched but could not be parsed.',
    fix: 'Correct the policy file (version: STSv1, mode, mx, max_age; one key: value per line) and serve it as text/plain.',
  },
  {
    type: 'sts-webpki-invalid',
    category: 'sts',
    rfc: 'RFC 8460 §4.3.2.2',
    meaning: 'The certificate of the MTA-STS policy host (mta-sts.<domain>) could not be validated.',
    fix: 'Serve mta-sts.<domain> with a publicly trusted certificate valid for that name.',
  },
];

export function tlsRptResultTypeInfo(type: string): TlsRptResultTypeInfo | undefined {
  return tlsRptResultTypes.find((info) => info.type === type);
}
