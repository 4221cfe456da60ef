// DKIM interop with independent implementations, through the API with keys served by the lab DNS
// server:
// - messages signed by dkimpy (fixtures/dkim-dkimpy.json, recorded by fixtures/dkim-dkimpy.py: RSA
//   1024/2048/4096 and Ed25519 in all four canonicalizations, l=, i=, x=, t=, z=, over-signing,
//   several signatures with one broken, keys verifiers refuse) get dkimpy's verdict from
//   POST /v1/dkim/verify-message, except where dkimpy departs from the RFCs (said case by case);
//   when Debian's python3-dkim is installed, dkimpy's verdicts are re-checked live;
// - records from POST /v1/dkim/generate are read by dkimpy's key parser for messages dkimpy and
//   mailauth signed with the matching private keys (live, when dkimpy is installed) and by our route;
// - odd but valid key records, split strings, several TXT records, CNAME delegation and DNS
//   failures through POST /v1/dkim/dns, /v1/dkim/selectors and /v1/dkim/verify-message.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type {
  DkimDnsResultData,
  DkimGenerateResultData,
  DkimSelectorDiscoveryData,
  DkimVerifyMessageResult,
} from '@rfckit/standards';
import { dkimSign } from 'mailauth';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord, spkiBase64 } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { DKIMPY_PRELUDE, hasPythonModules, runPythonJson } from './helpers/python.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

interface DkimpyFixture {
  generator: string;
  /** Key name to TXT record, public keys only. */
  records: Record<string, string>;
  /** `dkimpy`: dkimpy's verdict per signature, top first: `pass`, `fail` or `fail: <its reason>`. */
  messages: Record<string, { message: string; dkimpy: string[] }>;
}

const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/dkim-dkimpy.json', import.meta.url), 'utf8'),
) as DkimpyFixture;

/** dkimpy, when Debian's python3-dkim (with python3-nacl for Ed25519) is on this machine. */
const hasDkimpy = hasPythonModules('dkim', 'nacl');
/** Verifies every signature (verdicts as in the fixture) and, given keys, signs first. */
const DKIMPY = `${DKIMPY_PRELUDE}
message = req['message'].encode()
if 'sign' in req:
    s = req['sign']
    alg = s['a'].encode()
    key = s['key'].encode()
    message = dkim.DKIM(message, signature_algorithm=alg).sign(
        s['s'].encode(), s['d'].encode(), key, canonicalize=tuple(c.encode() for c in s['c'].split('/')),
        include_headers=[b'from', b'to', b'subject', b'date']) + message
n = len([1 for line in message.split(b'\\r\\n') if line.lower().startswith(b'dkim-signature:')])
out = []
for idx in range(n):
    try:
        out.append('pass' if dkim.DKIM(message).verify(idx=idx, dnsfunc=dnsfunc) else 'fail')
    except (dkim.DKIMException, ValueError) as e:
        out.append('fail: ' + str(e))
print(json.dumps({'message': message.decode(), 'verdicts': out}))
`;
function dkimpy(request: {
  message: string;
  keys: Record<string, string>;
  sign?: { a: string; c: string; d: string; s: string; key: string };
}): { message: string; verdicts: string[] } {
  return runPythonJson(DKIMPY, request);
}

/**
 * Where dkimpy 1.1.4 and the RFCs disagree we follow the RFC: the result we give instead of dkimpy's.
 * Every other fixture message must get dkimpy's verdict (pass, or any non-pass for its fail).
 */
const departures: Record<string, { ours: string[]; why: string }> = {
  'rsa-sha1': {
    ours: ['fail'],
    why: 'RFC 8301 §3.1: verifiers MUST NOT consider rsa-sha1 signatures valid; dkimpy still passes them',
  },
  'sha1-only-key': {
    ours: ['permerror'],
    why: 'RFC 6376 §6.1.2 step 6: a key whose h= lacks the signature hash MUST be ignored (PERMFAIL); dkimpy ignores h=',
  },
  'identity-subdomain-strict': {
    ours: ['permerror'],
    why: 'RFC 6376 §3.6.1 t=s: the i= domain MUST equal d=; dkimpy does not read t=',
  },
  'future-timestamp': {
    ours: ['pass'],
    why: 'RFC 6376 §3.5 t=: verifiers MAY ignore signatures dated in the future; mailauth and we do not, dkimpy fails them',
  },
  'service-list': {
    ours: ['pass'],
    why: 'RFC 6376 §3.6.1: s= is a colon-separated list, s=email:* allows email; dkimpy compares it as one word',
  },
};

const MESSAGE = [
  'From: Carol <carol@gen.test>',
  'To: Dan <dan@example.net>',
  'Subject: Generated record check',
  'Date: Mon, 23 Nov 2026 09:00:00 +0000',
  'Message-ID: <gen-1@gen.test>',
  '',
  'Signed with the private half of a key whose record our generator wrote.',
  '',
].join('\r\n');

// keys for the generator round trip: the private halves sign, the public halves go to /generate
const generated = {
  rsa: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  ed: generateKeyPairSync('ed25519'),
};
const pkcs1Pem = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();
/** dkimpy's Ed25519 private key: the 32-byte seed, the end of the PKCS#8 DER (RFC 8410). */
const edSeed = (key: KeyObject) =>
  key.export({ type: 'pkcs8', format: 'der' }).subarray(-32).toString('base64');

// the key the lab publishes under interop.test in odd but valid forms; mailauth signs with it
const labPair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const labKey = spkiBase64(labPair.publicKey);
const labRecord = dkimKeyRecord(labPair.publicKey);
const otherKey = spkiBase64(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
/** No v=, p= first and folded with spaces, tags in any order, unknown tags, list values, notes with spaces. */
const oddRecord = [
  `p = ${labKey.match(/.{1,60}/g)!.join(' \t ')}`,
  'n=notes with spaces, for people',
  'x_vendor=kept;t=y:s',
  '  s=*',
  'h=sha1:sha256',
  'k=rsa ;',
].join(' ; ');
/** One record in strings cut at awkward places: inside a tag name, after '=', inside base64. */
const awkwardStrings = [
  labRecord.slice(0, 17),
  labRecord.slice(17, 18),
  labRecord.slice(18, 19),
  labRecord.slice(19, 274),
  labRecord.slice(274),
];

const zones = {
  ...testTld,
  ...Object.fromEntries(Object.entries(fixture.records).map(([name, record]) => [name, { TXT: record }])),
  'odd._domainkey.interop.test': { TXT: oddRecord },
  'awkward._domainkey.interop.test': { TXT: [awkwardStrings] },
  // a site-verification string served before the key at the same name
  'othertxt._domainkey.interop.test': { TXT: ['site-verification=0123456789abcdef', labRecord] },
  'twokeys._domainkey.interop.test': { TXT: [labRecord, `v=DKIM1; k=rsa; p=${otherKey}`] },
  // delegation to a provider through two CNAMEs
  'delegated._domainkey.interop.test': { CNAME: 'hop.cname.test', ttl: 900 },
  'hop.cname.test': { CNAME: 'tenant-1._domainkey.provider.test', ttl: 600 },
  'tenant-1._domainkey.provider.test': { TXT: labRecord, ttl: 3600 },
  'broken._domainkey.interop.test': { servfail: true },
  'silent._domainkey.interop.test': { timeout: true },
  'nodata._domainkey.interop.test': { A: '127.0.0.1' },
  // selector discovery: two common selectors answer, two fail
  'google._domainkey.probe.test': { TXT: labRecord },
  'k1._domainkey.probe.test': { TXT: dkimKeyRecord(generated.ed.publicKey) },
  'selector1._domainkey.probe.test': { timeout: true },
  's1._domainkey.probe.test': { servfail: true },
};

const cases = Object.entries(fixture.messages);

describe('the dkimpy fixture', () => {
  it('covers what the interop brief names', () => {
    for (const name of [
      'r1024-relaxed-relaxed',
      'r2048-simple-simple',
      'r4096-relaxed-simple',
      'r2048-simple-relaxed',
      'ed-relaxed-relaxed',
      'ed-simple-simple',
      'ed-relaxed-simple',
      'ed-simple-relaxed',
      'length-appended',
      'identity-subdomain',
      'expired',
      'copied-headers',
      'oversigned',
      'multi-one-wrong-key',
    ]) {
      expect(fixture.messages[name], name).toBeDefined();
    }
  });

  it.runIf(hasDkimpy).each(cases)('dkimpy still gives the recorded verdicts on %s', (_, entry) => {
    const live = dkimpy({ message: entry.message, keys: fixture.records });
    // reasons name body hashes computed at run time: compare the verdict word and the reason text
    const word = (verdict: string) => verdict.replace(/\(got .*$/, '');
    expect(live.verdicts.map(word)).toEqual(entry.dkimpy.map(word));
  });
});

describeEachDatabase('DKIM interop through the API', (database) => {
  const tool = toolTestApp({ database, zones });
  const post = (url: string, body: unknown) => tool.post(url, body);
  const verify = (message: string) =>
    tool.data<DkimVerifyMessageResult>('/v1/dkim/verify-message', { message });
  const lookup = (selector: string, domain = 'interop.test') =>
    tool.data<DkimDnsResultData>('/v1/dkim/dns', { domain, selector });

  // ---- messages dkimpy signed ----

  it.each(cases)('gives dkimpy-signed %s the verdict dkimpy gives, or the RFC one', async (name, entry) => {
    const data = await verify(entry.message);
    const results = data.signatures.map((signature) => signature.result);
    const departure = departures[name];
    if (departure) {
      expect(results, departure.why).toEqual(departure.ours);
      return;
    }
    expect(results).toHaveLength(entry.dkimpy.length);
    entry.dkimpy.forEach((verdict, index) => {
      if (verdict === 'pass') expect(results[index], `${name} #${index}`).toBe('pass');
      else expect(results[index], `${name} #${index}: dkimpy said ${verdict}`).not.toBe('pass');
    });
    expect(data.summary.result).toBe(entry.dkimpy.includes('pass') ? 'pass' : 'fail');
  });
  it.each([
    [
      'identity-outside',
      'permerror',
      /^domain mismatch: the i= domain is neither d= nor a subdomain/,
      'RFC 6376 §6.1.1',
    ],
    ['identity-subdomain-strict', 'permerror', /^domain mismatch: the key record has t=s/, 'RFC 6376 §3.6.1'],
    ['sha1-only-key', 'permerror', /^inappropriate hash algorithm: .*h=/, 'RFC 6376 §6.1.2'],
    ['tlsrpt-key', 'permerror', /^key not for email: .*s=/, 'RFC 6376 §3.6.1'],
    ['ed-key-rsa-signature', 'permerror', /^inappropriate key algorithm: .*k=/, 'RFC 6376 §6.1.2'],
    ['expired', 'fail', /^signature expired$/, 'RFC 6376 §3.5'],
    ['weak-512', 'fail', /^RSA key of 512 bits is under the 1024-bit minimum$/, 'RFC 8301 §3.2'],
    ['rsa-sha1', 'fail', /^rsa-sha1 MUST NOT be used$/, 'RFC 8301 §3.1'],
    ['tampered-body', 'fail', /^body hash did not verify$/, 'RFC 6376 §6.1.3'],
    ['tampered-subject', 'fail', /^signature did not verify$/, 'RFC 6376 §6.1.3'],
  ])('explains %s: %s with the reason and section', async (name, result, reason, rfc) => {
    const [signature] = (await verify(fixture.messages[name]!.message)).signatures;
    expect(signature).toMatchObject({ result, rfc });
    expect(signature!.reason).toMatch(reason);
  });

  it('reports the tags of a dkimpy signature as written: l=, i=, x=, z= and over-signed h=', async () => {
    const [length] = (await verify(fixture.messages['length-appended']!.message)).signatures;
    expect(length).toMatchObject({ result: 'pass', i: '@dkimpy.test', bodyHash: { match: true } });
    const [identity] = (await verify(fixture.messages['identity-subdomain']!.message)).signatures;
    expect(identity).toMatchObject({ result: 'pass', i: 'alice@mail.dkimpy.test', d: 'dkimpy.test' });
    const [later] = (await verify(fixture.messages['expires-later']!.message)).signatures;
    expect(later).toMatchObject({ expiresAt: '2100-01-01T00:00:00.000Z', expired: false });
    const [expired] = (await verify(fixture.messages.expired!.message)).signatures;
    // dkimpy signed with t=1780000000 and x= one hour later
    expect(expired).toMatchObject({
      signedAt: '2026-05-28T20:26:40.000Z',
      expiresAt: '2026-05-28T21:26:40.000Z',
      expired: true,
    });
    const [over] = (await verify(fixture.messages.oversigned!.message)).signatures;
    expect(over!.signedHeaders).toEqual([
      'from',
      'from',
      'to',
      'subject',
      'subject',
      'reply-to',
      'date',
      'message-id',
    ]);
  });

  it('verifies a dkimpy message pasted with LF line endings', async () => {
    const data = await verify(fixture.messages['r2048-simple-relaxed']!.message.replace(/\r\n/g, '\n'));
    expect(data.signatures.map((signature) => signature.result)).toEqual(['pass']);
  });

  // ---- records our generator writes, read by dkimpy and by us ----

  /** mailauth's signature over MESSAGE with the d/s/a/c the generator told the signer to use. */
  async function mailauthSign(
    signer: DkimGenerateResultData['signer'],
    privateKey: KeyObject,
  ): Promise<string> {
    const data = {
      signingDomain: signer.d,
      selector: signer.s,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      algorithm: signer.a,
    };
    const signed = await dkimSign(MESSAGE, { ...data, canonicalization: signer.c, signatureData: [data] });
    expect(signed.errors).toEqual([]);
    return signed.signatures + MESSAGE;
  }

  it.each([
    { kind: 'rsa' as const, algorithm: 'rsa-sha256', canonicalization: 'relaxed/relaxed', key: 'der' },
    { kind: 'rsa' as const, algorithm: 'rsa-sha256', canonicalization: 'simple/simple', key: 'pem' },
    { kind: 'ed' as const, algorithm: 'ed25519-sha256', canonicalization: 'relaxed/simple', key: 'der' },
    { kind: 'ed' as const, algorithm: 'ed25519-sha256', canonicalization: 'simple/relaxed', key: 'pem' },
  ])(
    'publishes a $algorithm record ($key key, $canonicalization) that dkimpy and we accept',
    async ({ kind, algorithm, canonicalization, key }) => {
      const pair = generated[kind];
      const publicKey =
        key === 'pem'
          ? pair.publicKey.export({ type: 'spki', format: 'pem' }).toString()
          : pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      const selector = `gen-${kind}-${canonicalization.replace('/', '-')}`;
      const generatedRecord = await tool.data<DkimGenerateResultData>('/v1/dkim/generate', {
        domain: 'Gen.Test.',
        selector,
        publicKey,
        algorithm,
        canonicalization,
        serviceType: 'email',
        flags: ['s'],
        notes: 'rotated 2026-11',
      });
      expect(generatedRecord.dnsName).toBe(`${selector}._domainkey.gen.test`);
      expect(generatedRecord.signer).toEqual({
        a: algorithm,
        c: canonicalization,
        d: 'gen.test',
        s: selector,
      });
      // publish it as the generator says: its 255-character strings
      expect(generatedRecord.txtStrings.join('')).toBe(generatedRecord.record);
      tool.dns.update(generatedRecord.dnsName, { TXT: [generatedRecord.txtStrings] });
      const keys = { [generatedRecord.dnsName]: generatedRecord.record };

      const byMailauth = await mailauthSign(generatedRecord.signer, pair.privateKey);
      const ours = await verify(byMailauth);
      expect(ours.signatures.map((signature) => [signature.result, signature.key?.status])).toEqual([
        ['pass', 'valid'],
      ]);
      if (!hasDkimpy) return;
      // dkimpy reads our record for mailauth's signature, and for its own
      expect(dkimpy({ message: byMailauth, keys }).verdicts).toEqual(['pass']);
      const signedByDkimpy = dkimpy({
        message: MESSAGE,
        keys,
        sign: {
          a: algorithm,
          c: canonicalization,
          d: 'gen.test',
          s: selector,
          key: kind === 'rsa' ? pkcs1Pem(pair.privateKey) : edSeed(pair.privateKey),
        },
      });
      expect(signedByDkimpy.verdicts).toEqual(['pass']);
      const back = await verify(signedByDkimpy.message);
      expect(back.signatures.map((signature) => signature.result)).toEqual(['pass']);
    },
  );

  it('refuses a private key pasted as the public key, without echoing it', async () => {
    const privatePem = generated.rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const response = await post('/v1/dkim/generate', {
      domain: 'gen.test',
      selector: 'oops',
      publicKey: privatePem,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.json().error).toMatch(/^This is a private key: keep it secret and never publish it/);
    expect(response.body).not.toContain(privatePem.split('\n')[1]!);
  });

  it.each([
    [{}, 'Domain, selector, and public key are required'],
    [{ domain: 'gen.test', selector: 'x', publicKey: '  ' }, 'Domain, selector, and public key are required'],
  ])('answers generate %j with the spec message', async (body, error) => {
    const response = await post('/v1/dkim/generate', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error, code: 'VALIDATION_ERROR' });
  });

  it.each([
    ['/v1/dkim/validate', {}, 'DKIM record is required'],
    ['/v1/dkim/validate', { record: ' \t' }, 'DKIM record is required'],
    ['/v1/dkim/dns', { domain: 'interop.test' }, 'Domain and selector are required'],
    ['/v1/dkim/dns', { selector: 'odd', domain: '' }, 'Domain and selector are required'],
  ])('answers %s %j with the spec message', async (url, body, error) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error });
  });

  // ---- key records in DNS ----

  it('accepts a record with odd but valid syntax, in DNS and for a signature', async () => {
    const data = await lookup('odd');
    expect(data, JSON.stringify(data.issues)).toMatchObject({ status: 'valid', valid: true, lookup: 'ok' });
    expect(data.validation?.parsed).toMatchObject({
      version: null,
      keyType: 'rsa',
      keySize: 2048,
      hashAlgorithms: ['sha1', 'sha256'],
      serviceTypes: ['*'],
      flags: ['y', 's'],
      notes: 'notes with spaces, for people',
    });
    const codes = data.issues.map((issue) => issue.code);
    expect(codes).toEqual(
      expect.arrayContaining(['DKIM_VERSION_ABSENT', 'DKIM_TAG_UNKNOWN', 'DKIM_TESTING', 'DKIM_HASH_SHA1']),
    );
    expect(data.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const message = await mailauthSign(
      { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'interop.test', s: 'odd' },
      labPair.privateKey,
    );
    const verified = await verify(message);
    // t=y: verifiers report the result as usual, flagged as testing
    expect(verified.signatures[0]).toMatchObject({ result: 'pass', testing: true, key: { size: 2048 } });
  });

  it('joins strings split inside a tag name, after = and inside base64', async () => {
    const data = await lookup('awkward');
    expect(data.strings).toEqual(awkwardStrings);
    expect(data.record).toBe(labRecord);
    expect(data).toMatchObject({ status: 'valid', valid: true });
    expect(data.validation?.parsed).toMatchObject({ strings: 5, keySize: 2048 });
    const message = await mailauthSign(
      { a: 'rsa-sha256', c: 'simple/simple', d: 'interop.test', s: 'awkward' },
      labPair.privateKey,
    );
    expect((await verify(message)).signatures[0]?.result).toBe('pass');
  });

  it('follows two CNAMEs to a provider, in DNS and for a signature', async () => {
    const data = await lookup('delegated');
    expect(data).toMatchObject({
      status: 'valid',
      canonicalName: 'tenant-1._domainkey.provider.test',
      cnames: [
        { name: 'delegated._domainkey.interop.test', target: 'hop.cname.test' },
        { name: 'hop.cname.test', target: 'tenant-1._domainkey.provider.test' },
      ],
      record: labRecord,
      ttl: 600,
    });
    expect(data.issues.map((issue) => issue.code)).toContain('DKIM_DNS_CNAME');
    const message = await mailauthSign(
      { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'interop.test', s: 'delegated' },
      labPair.privateKey,
    );
    const verified = await verify(message);
    expect(verified.signatures[0]).toMatchObject({ result: 'pass', key: { record: labRecord } });
  });

  it('warns about another TXT record beside the key and still verifies with the key', async () => {
    const data = await lookup('othertxt');
    expect(data).toMatchObject({ status: 'valid', valid: true, record: labRecord });
    expect(data.txtRecords).toEqual(['site-verification=0123456789abcdef', labRecord]);
    // RFC 6376 §3.6.2.2: several TXT records at a selector make the result undefined; verifiers
    // that take the first record served (dkimpy, mailauth) miss the key when the other comes first
    const other = data.issues.find((issue) => issue.code === 'DKIM_DNS_OTHER_TXT');
    expect(other).toMatchObject({ severity: 'warning', rfc: 'RFC 6376 §3.6.2.2' });
    const message = await mailauthSign(
      { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'interop.test', s: 'othertxt' },
      labPair.privateKey,
    );
    const verified = await verify(message);
    expect(verified.signatures[0]).toMatchObject({ result: 'pass', key: { record: labRecord } });
    expect(verified.signatures[0]!.key!.diagnostics.map((d) => d.code)).toContain('DKIM_DNS_OTHER_TXT');
  });

  it('calls two key records at one name invalid and says which one a verifier took', async () => {
    const data = await lookup('twokeys');
    expect(data).toMatchObject({ status: 'invalid', valid: false, record: null });
    expect(data.issues.map((issue) => issue.code)).toContain('DKIM_DNS_MULTIPLE_RECORDS');
    const message = await mailauthSign(
      { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'interop.test', s: 'twokeys' },
      labPair.privateKey,
    );
    const verified = await verify(message);
    // the first record served is the one used, and the one shown
    expect(verified.signatures[0]).toMatchObject({ result: 'pass', key: { record: labRecord } });
    expect(verified.signatures[0]!.key!.diagnostics.map((d) => d.code)).toContain(
      'DKIM_DNS_MULTIPLE_RECORDS',
    );
  });

  it('reports SERVFAIL, NODATA and NXDOMAIN as results, and no answer as a check we could not make', async () => {
    const [broken, nodata, missing] = await Promise.all(
      ['broken', 'nodata', 'missing'].map((selector) => lookup(selector)),
    );
    expect(broken).toMatchObject({ status: 'error', lookup: 'servfail', valid: false, record: null });
    expect(broken!.issues.map((issue) => issue.code)).toEqual(['DKIM_DNS_SERVFAIL']);
    // our resolver giving no answer says nothing about the key (docs/architecture.md §6)
    const silent = await post('/v1/dkim/dns', { domain: 'interop.test', selector: 'silent' });
    expect(silent.statusCode).toBe(503);
    expect(silent.json()).toMatchObject({ success: false, code: 'RESOLVER_UNAVAILABLE' });
    expect(nodata).toMatchObject({ status: 'not-found', lookup: 'nodata', valid: false });
    expect(nodata!.issues.map((issue) => issue.code)).toEqual(['DKIM_DNS_NODATA']);
    expect(missing).toMatchObject({ status: 'not-found', lookup: 'nxdomain', valid: false });
    expect(missing!.issues.map((issue) => issue.code)).toEqual(['DKIM_DNS_NXDOMAIN']);
    for (const result of [broken, nodata, missing]) {
      expect(result!.issues.every((issue) => issue.severity === 'error' && issue.message !== '')).toBe(true);
    }
  });

  it('gives temperror for SERVFAIL and timeout and permerror for NODATA and NXDOMAIN', async () => {
    let message = MESSAGE;
    // sign bottom-up so the verdicts come back in this order
    for (const selector of ['missing', 'nodata', 'silent', 'broken']) {
      message =
        (
          await dkimSign(message, {
            signingDomain: 'interop.test',
            selector,
            privateKey: labPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
            algorithm: 'rsa-sha256',
            canonicalization: 'relaxed/relaxed',
            signatureData: [
              {
                signingDomain: 'interop.test',
                selector,
                privateKey: labPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
                algorithm: 'rsa-sha256',
              },
            ],
          })
        ).signatures + message;
    }
    const data = await verify(message);
    expect(
      data.signatures.map((signature) => [signature.s, signature.result, signature.key?.lookup]),
    ).toEqual([
      ['broken', 'temperror', 'servfail'],
      ['silent', 'temperror', 'timeout'],
      ['nodata', 'permerror', 'nodata'],
      ['missing', 'permerror', 'nxdomain'],
    ]);
    expect(data.summary).toMatchObject({ result: 'fail', total: 4, passed: 0 });
  });

  it('lists the selectors found, and those whose lookups failed, in discovery', async () => {
    const data = await tool.data<DkimSelectorDiscoveryData>('/v1/dkim/selectors', { domain: 'probe.test' });
    expect(data.found.map((entry) => [entry.selector, entry.keyType, entry.keySize, entry.status])).toEqual([
      ['google', 'rsa', 2048, 'valid'],
      ['k1', 'ed25519', 256, 'valid'],
    ]);
    expect(data.failed.map((entry) => entry.selector).sort()).toEqual(['s1', 'selector1']);
    for (const entry of data.failed) expect(entry.message).toMatch(/SERVFAIL|no answer|timed out|timeout/i);
    expect(data.unchecked).toEqual([]);
  });
});
