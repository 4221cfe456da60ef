// The DANE live check against the lab: TLSA records signed into the DNSSEC lab's zones by
// dnssec-signzone, a STARTTLS SMTP and an HTTPS server on loopback with lab certificates, and the
// app validating from the lab root. TLSA data comes from node:crypto's reading of the certificates,
// never from the code under test.
import { createHash, X509Certificate } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { DaneCheckResult, DaneEndpoint } from '@rfckit/standards';
import {
  buildDnssecLab,
  createTestCa,
  hasProgram,
  startDnsServer,
  startNodeTlsServer,
  startStarttlsSmtpServer,
  type DnssecLab,
  type LabDnsServer,
} from '@rfckit/testlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labRoutes } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const spkiSha256 = (pem: string) =>
  sha256(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }));
const certSha256 = (pem: string) => sha256(new X509Certificate(pem).raw);
const firstPem = (chain: string, index: number) =>
  chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)?.[index] ?? '';

const zone = 'secure.test';
const mailHosts = ['ee', 'cert', 'mismatch', 'pkix', 'closed', 'cname', 'bogus', 'slow'].map(
  (name) => `mx-${name}.${zone}`,
);
const TA_HOST = `mx-ta.${zone}`;
// a server that sends its certificate alone, its CA published in full as DANE-TA (RFC 7671 §5.2.2)
const TA_FULL_HOST = `mx-tafull.${zone}`;
// a server that leaves out its CA, published only by digest: a DANE client cannot find that anchor
const TA_MISSING_HOST = `mx-tamissing.${zone}`;
const WEB_HOST = `www.${zone}`;

let lab: DnssecLab;
let dns: LabDnsServer;
let caFile: string | undefined;
const routes = labRoutes();

// extra records need dnssec-signzone (the recordings cannot take them); CI installs it
const canSign = hasProgram('dnssec-signzone') || process.env.CI === 'true';

beforeAll(async () => {
  if (!canSign) return;
  const ca = await createTestCa();
  const intermediate = await ca.intermediate({ name: 'rfckit lab DANE-TA' });
  const mail = await ca.issue({ names: mailHosts });
  const ta = await intermediate.issue({ names: [TA_HOST] });
  const web = await ca.issue({ names: [WEB_HOST] });
  // a CA outside OUTBOUND_CA_FILE, so nothing but the server's own certificate reaches the check
  const privateCa = await createTestCa();
  const leafOnly = await privateCa.issue({ names: [TA_FULL_HOST] });
  const rootOmitted = await ca.issue({ names: [TA_MISSING_HOST] });
  await routes.serve(
    TA_MISSING_HOST,
    startStarttlsSmtpServer({ certificate: { ...rootOmitted, chain: rootOmitted.cert } }),
    25,
  );
  await routes.serve(
    TA_FULL_HOST,
    startStarttlsSmtpServer({ certificate: { ...leafOnly, chain: leafOnly.cert } }),
    25,
  );
  await routes.serve(
    mailHosts.filter((host) => !host.startsWith('mx-closed')),
    startStarttlsSmtpServer({ certificate: mail }),
    25,
  );
  await routes.serve(TA_HOST, startStarttlsSmtpServer({ certificate: ta }), 25);
  await routes.serve(WEB_HOST, startNodeTlsServer({ certificate: web }), 443);
  await routes.closed(`mx-closed.${zone}`, 25);

  const mailKey = spkiSha256(mail.cert);
  const record = (owner: string, rdata: string) => `${owner}. 300 IN TLSA ${rdata}`;
  const mailDomain = (domain: string, host: string) => [
    `${domain}.${zone}. 300 IN MX 10 ${host}.`,
    ...(host.endsWith(zone) && !host.startsWith('mx-cname') ? [`${host}. 300 IN A 127.0.0.1`] : []),
  ];
  lab = await buildDnssecLab({
    extraRecords: {
      [zone]: [
        // the current key and the next one: ready for a rollover (RFC 7671 §8.1)
        ...mailDomain('ee', `mx-ee.${zone}`),
        record(`_25._tcp.mx-ee.${zone}`, `3 1 1 ${mailKey}`),
        record(`_25._tcp.mx-ee.${zone}`, `3 1 1 ${spkiSha256(web.cert)}`),
        ...mailDomain('cert', `mx-cert.${zone}`),
        record(`_25._tcp.mx-cert.${zone}`, `3 0 1 ${certSha256(mail.cert)}`),
        ...mailDomain('ta', TA_HOST),
        record(`_25._tcp.${TA_HOST}`, `2 0 1 ${certSha256(firstPem(ta.chain, 1))}`),
        ...mailDomain('tamissing', TA_MISSING_HOST),
        record(`_25._tcp.${TA_MISSING_HOST}`, `2 0 1 ${certSha256(ca.cert)}`),
        ...mailDomain('tafull', TA_FULL_HOST),
        record(
          `_25._tcp.${TA_FULL_HOST}`,
          `2 1 0 ${new X509Certificate(privateCa.cert).publicKey.export({ type: 'spki', format: 'der' }).toString('hex')}`,
        ),
        // the intermediate did not sign this server's certificate: given in full, it still matches nothing
        record(
          `_25._tcp.${TA_FULL_HOST}`,
          `2 0 0 ${new X509Certificate(firstPem(ta.chain, 1)).raw.toString('hex')}`,
        ),
        ...mailDomain('mismatch', `mx-mismatch.${zone}`),
        record(`_25._tcp.mx-mismatch.${zone}`, `3 1 1 ${spkiSha256(web.cert)}`),
        ...mailDomain('pkix', `mx-pkix.${zone}`),
        record(`_25._tcp.mx-pkix.${zone}`, `1 1 1 ${mailKey}`),
        ...mailDomain('closed', `mx-closed.${zone}`),
        record(`_25._tcp.mx-closed.${zone}`, `3 1 1 ${mailKey}`),
        // the MX host is an alias: TLSA at the name it expands to (RFC 7672 §2.2.2)
        ...mailDomain('cname', `mx-cname.${zone}`),
        `mx-cname.${zone}. 300 IN CNAME mx-ee.${zone}.`,
        // the TLSA owner is an alias into a zone whose signatures have expired
        ...mailDomain('bogus', `mx-bogus.${zone}`),
        `_25._tcp.mx-bogus.${zone}. 300 IN CNAME _25._tcp.mx.expired.test.`,
        ...mailDomain('slow', `mx-slow.${zone}`),
        record(`_25._tcp.mx-slow.${zone}`, `3 1 1 ${mailKey}`),
        record(`_443._tcp.${WEB_HOST}`, `3 1 1 ${spkiSha256(web.cert)}`),
        // an MX host that does not exist, and a name with neither MX nor address records
        `gone.${zone}. 300 IN MX 10 mx-gone.${zone}.`,
        `noaddress.${zone}. 300 IN TXT "no mail here"`,
      ],
      'expired.test': [record('_25._tcp.mx.expired.test', `3 1 1 ${mailKey}`)],
      'unsigned.test': [record('_25._tcp.mx.unsigned.test', `3 1 1 ${mailKey}`)],
    },
  });
  dns = await startDnsServer({
    zones: {},
    signedZones: lab.zones,
    switches: { [`_25._tcp.mx-slow.${zone}`]: { timeout: true } },
  });
  caFile = `${lab.trustAnchorFile}.ca.pem`;
  writeFileSync(caFile, ca.cert);
}, 120_000);

afterAll(async () => {
  await routes.close();
  await dns?.close();
  if (caFile !== undefined) rmSync(caFile, { force: true });
});

const tool = toolTestApp({
  lab: () => ({ connectTo: routes.connectTo }),
  env: () =>
    canSign
      ? { DNS_SERVERS: dns.address, DNSSEC_TRUST_ANCHORS: lab.trustAnchorFile, OUTBOUND_CA_FILE: caFile }
      : {},
});

const check = (body: Record<string, unknown>) => tool.data<DaneCheckResult>('/v1/dane/check', body);
const only = (result: DaneCheckResult): DaneEndpoint => {
  expect(result.endpoints).toHaveLength(1);
  return result.endpoints[0]!;
};
const codes = (endpoint: DaneEndpoint) => endpoint.reasons.map((reason) => reason.code);

describe.skipIf(!canSign)('POST /v1/dane/check on the signed lab', { timeout: 30_000 }, () => {
  it('3 1 1 over STARTTLS passes, with the next key published: ready for a rollover', async () => {
    const result = await check({ host: `ee.${zone}` });
    expect(result.verdict).toBe('pass');
    expect(result.mx).toMatchObject({ status: 'secure', hosts: [{ preference: 10, host: `mx-ee.${zone}` }] });
    const endpoint = only(result);
    expect(endpoint).toMatchObject({
      host: `mx-ee.${zone}`,
      port: 25,
      addresses: { status: 'secure' },
      tlsa: { status: 'secure', found: 'records', tried: [`_25._tcp.mx-ee.${zone}`] },
      tls: { status: 'ok', starttls: 'smtp' },
      rollover: { ready: true },
    });
    // the lab serves the set in canonical order (RFC 4034 §6.3), not as written
    expect(endpoint.records.filter((record) => record.matched)).toMatchObject([
      { certificate: 0, usable: true },
    ]);
    expect(endpoint.records).toHaveLength(2);
  });

  it('3 0 1 of the whole certificate passes; one record alone is not ready for a rollover', async () => {
    const endpoint = only(await check({ host: `cert.${zone}`, protocol: 'smtp', port: 25 }));
    expect(endpoint.verdict).toBe('pass');
    expect(endpoint.rollover).toMatchObject({ ready: false, rfc: 'RFC 7671 §8.1' });
    expect(endpoint.rollover?.fix).toMatch(/publish a second record/);
  });

  it('2 0 1 of the intermediate CA the server sends passes, the name checked', async () => {
    const endpoint = only(await check({ host: `ta.${zone}` }));
    expect(endpoint.verdict).toBe('pass');
    expect(endpoint.records[0]).toMatchObject({ usage: 2, matched: true, certificate: 1 });
    expect(endpoint.tls.certificates[0]?.names).toEqual([TA_HOST]);
    expect(endpoint.referenceNames).toEqual([TA_HOST]);
  });

  it('2 1 0 of a CA the server does not send passes when its key signed the certificate sent', async () => {
    const endpoint = only(await check({ host: `tafull.${zone}` }));
    expect(endpoint.tls.certificates).toHaveLength(1);
    expect(endpoint.verdict).toBe('pass');
    // records come in DNS order (canonical RDATA), so they are told apart by selector
    const full = endpoint.records.find((record) => record.selector === 1);
    const other = endpoint.records.find((record) => record.selector === 0);
    expect(full).toMatchObject({
      usage: 2,
      selector: 1,
      matchingType: 0,
      matched: true,
      anchorOutsideChain: true,
    });
    expect(other).toMatchObject({ usage: 2, selector: 0, matchingType: 0, matched: false });
  });

  it('2 0 1 of a CA the server leaves out fails, though our own store holds that CA', async () => {
    const endpoint = only(await check({ host: `tamissing.${zone}` }));
    // the chain as sent: Node would add the lab root from OUTBOUND_CA_FILE to the peer's chain
    expect(endpoint.tls.certificates).toHaveLength(1);
    expect(endpoint.verdict).toBe('fail');
    expect(endpoint.records[0]).toMatchObject({ usage: 2, matched: false, certificate: null });
  });

  it('3 1 1 over HTTPS at _443._tcp passes', async () => {
    const result = await check({ host: WEB_HOST, protocol: 'https' });
    expect(result).toMatchObject({ verdict: 'pass', port: 443, mx: null });
    expect(only(result)).toMatchObject({
      tls: { status: 'ok', starttls: null },
      tlsa: { owner: `_443._tcp.${WEB_HOST}` },
    });
  });

  it('a digest of another key fails: senders must not deliver', async () => {
    const result = await check({ host: `mismatch.${zone}` });
    expect(result.verdict).toBe('fail');
    const endpoint = only(result);
    expect(endpoint.records[0]).toMatchObject({ usable: true, matched: false });
    const reason = endpoint.reasons.find((candidate) => candidate.code === 'DANE_NO_MATCH');
    expect(reason?.message).toMatch(/must not deliver/);
    expect(reason?.fix).toBeTruthy();
  });

  it('usage 1 on port 25 is unusable: not applicable, with the reason', async () => {
    const result = await check({ host: `pkix.${zone}` });
    expect(result.verdict).toBe('not-applicable');
    const endpoint = only(result);
    expect(endpoint.records[0]).toMatchObject({ usable: false });
    expect(endpoint.records[0]?.unusableReason).toMatch(/RFC 7672 §3\.1\.3/);
    expect(codes(endpoint)).toEqual(['DANE_TLSA_UNUSABLE', 'DANE_TLSA_ALL_UNUSABLE']);
  });

  it('a closed port with TLSA published fails', async () => {
    const endpoint = only(await check({ host: `closed.${zone}` }));
    expect(endpoint.verdict).toBe('fail');
    expect(endpoint.tls.status).toBe('failed');
    expect(codes(endpoint)).toEqual(['DANE_TLS_FAILED']);
  });

  it('an MX host that is an alias has its TLSA looked up at the expanded name and both names accepted', async () => {
    const endpoint = only(await check({ host: `cname.${zone}` }));
    expect(endpoint).toMatchObject({
      verdict: 'pass',
      tlsa: { tried: [`_25._tcp.mx-ee.${zone}`] },
      referenceNames: [`mx-cname.${zone}`, `mx-ee.${zone}`],
    });
  });

  it('a bogus TLSA answer fails: do not deliver', async () => {
    const endpoint = only(await check({ host: `bogus.${zone}` }));
    expect(endpoint).toMatchObject({
      verdict: 'fail',
      tlsa: { status: 'bogus' },
      tls: { status: 'not-attempted' },
    });
    expect(endpoint.reasons[0]).toMatchObject({ code: 'DANE_TLSA_BOGUS', rfc: 'RFC 7672 §2.1.1' });
    expect(endpoint.reasons[0]?.message).toMatch(/do not deliver/);
  });

  it('a zone whose MX answer is bogus fails before any host', async () => {
    const result = await check({ host: 'expired.test' });
    expect(result).toMatchObject({ verdict: 'fail', endpoints: [], mx: { status: 'bogus' } });
    expect(result.reasons[0]?.code).toBe('DANE_MX_BOGUS');
  });

  it('TLSA in an unsigned zone is not applicable', async () => {
    const result = await check({ host: 'unsigned.test' });
    expect(result.verdict).toBe('not-applicable');
    const endpoint = only(result);
    expect(endpoint.tlsa).toMatchObject({ status: 'insecure', found: 'records' });
    expect(codes(endpoint)).toEqual(['DANE_ADDRESS_INSECURE']);
  });

  it('no TLSA in a signed zone is not applicable', async () => {
    const result = await check({ host: zone });
    expect(result.verdict).toBe('not-applicable');
    const endpoint = only(result);
    expect(endpoint.tlsa).toMatchObject({ status: 'secure', found: 'none' });
    expect(codes(endpoint)).toEqual(['DANE_NO_TLSA']);
  });

  it('a TLSA lookup that times out gives no verdict, and no 5xx', async () => {
    const result = await check({ host: `slow.${zone}` });
    expect(result.verdict).toBe('indeterminate');
    const endpoint = only(result);
    expect(codes(endpoint)).toEqual(['DANE_TLSA_UNANSWERED']);
    expect(endpoint.reasons[0]?.message).toMatch(/Senders defer mail to this host until DNS answers/);
    expect(endpoint.reasons[0]?.message).not.toMatch(/\.\./);
  });

  it('a TLSA lookup that times out for HTTPS speaks of clients, not of mail', async () => {
    const endpoint = only(await check({ host: `mx-slow.${zone}`, protocol: 'https', port: 25 }));
    expect(endpoint.verdict).toBe('indeterminate');
    expect(endpoint.reasons[0]).toMatchObject({ code: 'DANE_TLSA_UNANSWERED', rfc: 'RFC 6698 §4.1' });
    expect(endpoint.reasons[0]?.message).toMatch(/Clients that use DANE cannot authenticate the server/);
    expect(endpoint.reasons[0]?.message).not.toMatch(/sender|mail|\.\./i);
  });

  it('a mail domain that does not exist says NXDOMAIN, proven by NSEC, and looks up no host', async () => {
    const result = await check({ host: `nope.${zone}` });
    expect(result).toMatchObject({
      verdict: 'not-applicable',
      endpoints: [],
      mx: { status: 'secure', answer: 'nxdomain', records: [], hosts: [], implicit: false },
    });
    expect(result.mx?.denial).toMatchObject({ proven: true });
    expect(result.summary).toMatch(/^nope\.secure\.test does not exist \(NXDOMAIN\)/);
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_DOMAIN_NXDOMAIN']);
    expect(result.reasons[0]?.message).toMatch(/a secure denial: signed NSEC3? records prove it/);
  });

  it('a name with no MX and no address records has no mail host (RFC 5321 §5.1)', async () => {
    const result = await check({ host: `noaddress.${zone}` });
    expect(result).toMatchObject({ verdict: 'not-applicable', mx: { answer: 'nodata', implicit: false } });
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_NO_MAIL_HOST']);
    expect(only(result)).toMatchObject({ tlsa: null, tls: { status: 'not-attempted' } });
  });

  it('an MX host that does not exist is unreachable: no TLSA looked up, no connection', async () => {
    const result = await check({ host: `gone.${zone}` });
    expect(result.verdict).toBe('not-applicable');
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_NO_REACHABLE_MX']);
    const endpoint = only(result);
    expect(endpoint).toMatchObject({
      host: `mx-gone.${zone}`,
      addresses: { status: 'secure', answer: 'nxdomain', records: [] },
      tlsa: null,
      tls: { status: 'not-attempted' },
    });
    expect(codes(endpoint)).toEqual(['DANE_HOST_NXDOMAIN']);
  });

  it('an HTTPS name that does not exist says so, with no TLSA lookup', async () => {
    const result = await check({ host: `nope.${zone}`, protocol: 'https' });
    expect(result.verdict).toBe('not-applicable');
    expect(result.summary).toMatch(/does not exist \(NXDOMAIN\)/);
    expect(only(result)).toMatchObject({ tlsa: null, addresses: { answer: 'nxdomain' } });
  });
});

describe('POST /v1/dane/check input', () => {
  it.each([
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`, /63/],
    ['a name over 253 characters', `${'abcdefghi.'.repeat(26)}com`, /at most 253/],
  ])('refuses %s with 400', async (_, host, message) => {
    const response = await tool.post('/v1/dane/check', { host });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.body).toMatch(message);
  });

  it('needs a signed-in caller', async () => {
    expect((await tool.post('/v1/dane/check', { host: 'example.com' }, {})).statusCode).toBe(401);
  });
});
