// POST /v1/dkim/verify-message with keys from the lab DNS server: the RFC 8463 A.3 message passes
// with the A.2 keys, a tampered body fails with the body-hash reason, an unsigned message has no
// signatures, RFC 8301 fails rsa-sha1, and a fuzz of DKIM-Signature fields never gives a 5xx.
import { generateKeyPairSync } from 'node:crypto';
import type { DkimVerifyMessageResult } from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { dkimSign } from 'mailauth';
import { expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord, rfc8463 } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const rfc8463Signed = rfc8463.signed;
const unsigned = rfc8463.unsigned;
// the RFC's RSA key record as four strings, as A.2 prints it
const testKeyStrings = [68, 137, 206, undefined].map((end, i, ends) =>
  rfc8463.testRecord.slice(ends[i - 1] ?? 0, end),
);

// a fresh RSA-2048 key for an rsa-sha1 signature, which RFC 8301 §3.1 forbids
const sha1Pair = generateKeyPairSync('rsa', { modulusLength: 2048 });

// an Ed25519 key published the wrong way: the whole SubjectPublicKeyInfo in p= instead of the 32
// raw bytes RFC 8463 §4.2 asks for (mailauth reads it anyway; RFC-strict verifiers do not)
const spkiPair = generateKeyPairSync('ed25519');
const spkiRecord = `v=DKIM1; k=ed25519; p=${spkiPair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

const zones = {
  ...testTld,
  'brisbane._domainkey.football.example.com': { TXT: rfc8463.brisbaneRecord },
  'test._domainkey.football.example.com': { TXT: [testKeyStrings] },
  'sha1._domainkey.example.test': { TXT: dkimKeyRecord(sha1Pair.publicKey) },
  'spki._domainkey.example.test': { TXT: spkiRecord },
};

describeEachDatabase('POST /v1/dkim/verify-message', (database) => {
  const tool = toolTestApp({ database, zones });
  const post = (body: unknown, headers?: Record<string, string>) =>
    tool.post('/v1/dkim/verify-message', body, headers);
  const verify = (message: string) =>
    tool.data<DkimVerifyMessageResult>('/v1/dkim/verify-message', { message });

  it('needs a signed-in caller', async () => {
    const response = await post({ message: rfc8463Signed }, {});
    expect(response.statusCode).toBe(401);
  });

  it.each([{}, { message: '' }, { message: ' \r\n' }])(
    'answers %j with Message is required',
    async (body) => {
      const response = await post(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: 'Message is required' });
    },
  );

  it('refuses a message over 5 MiB', async () => {
    const response = await post({ message: `${unsigned}${'a'.repeat(5 * 1024 * 1024)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: 'Message is larger than 5 MiB' });
  });

  it('refuses a request body over the route limit with 413', async () => {
    const response = await post({ message: 'x'.repeat(16 * 1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json().success).toBe(false);
  });

  it('passes the RFC 8463 A.3 message with both keys from DNS', async () => {
    const before = tool.dns.queries.length;
    const data = await verify(rfc8463Signed);
    expect(data.summary).toMatchObject({ result: 'pass', total: 2, passed: 2 });
    expect(data.signatures.map((s) => [s.d, s.s, s.a, s.c, s.result, s.reason])).toEqual([
      ['football.example.com', 'brisbane', 'ed25519-sha256', 'relaxed/relaxed', 'pass', null],
      ['football.example.com', 'test', 'rsa-sha256', 'relaxed/relaxed', 'pass', null],
    ]);
    const [ed, rsa] = data.signatures;
    expect(ed!.signedHeaders).toEqual([
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'from',
      'subject',
      'date',
    ]);
    expect(ed!.bodyHash).toEqual({
      expected: '2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=',
      computed: '2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=',
      match: true,
    });
    expect(ed!.key).toMatchObject({
      type: 'ed25519',
      size: 256,
      status: 'valid',
      record: rfc8463.brisbaneRecord,
    });
    // the four strings were joined; the key record validator's RFC 8301 §3.2 SHOULD comes along
    expect(rsa!.key).toMatchObject({ type: 'rsa', size: 1024, record: testKeyStrings.join('') });
    expect(rsa!.key!.diagnostics.map((d) => d.code)).toContain('DKIM_RSA_SHORT');
    expect(ed!.signedAt).toBe('2018-06-10T13:38:29.000Z');
    expect(ed!.expiresAt).toBeNull();
    // the keys came from the lab server
    const asked = tool.dns.queries.slice(before).map((q) => q.name);
    expect(asked).toEqual(
      expect.arrayContaining([
        'brisbane._domainkey.football.example.com',
        'test._domainkey.football.example.com',
      ]),
    );
  });

  it('fails a tampered body with the body-hash reason', async () => {
    const data = await verify(rfc8463Signed.replace('hungry yet', 'hungry now'));
    expect(data.summary).toMatchObject({ result: 'fail', total: 2, passed: 0 });
    for (const signature of data.signatures) {
      expect(signature).toMatchObject({
        result: 'fail',
        reason: 'body hash did not verify',
        rfc: 'RFC 6376 §6.1.3',
      });
      expect(signature.bodyHash.match).toBe(false);
      expect(signature.bodyHash.computed).not.toBe(signature.bodyHash.expected);
      // the key is still looked up and shown
      expect(signature.key?.size).not.toBeNull();
    }
  });

  it('gives a clear empty result for a message without DKIM-Signature', async () => {
    const data = await verify(unsigned);
    expect(data.signatures).toEqual([]);
    expect(data.summary.result).toBe('none');
    expect(data.summary.message).toContain('no DKIM-Signature');
  });

  it('fails rsa-sha1 per RFC 8301 §3.1 although the signature is good', async () => {
    const signer = {
      signingDomain: 'example.test',
      selector: 'sha1',
      privateKey: sha1Pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      algorithm: 'rsa-sha1',
    };
    // mailauth signs with the signatureData entries; its types also ask for the fields at the top
    const signed = await dkimSign(unsigned.replace(/football\.example\.com/g, 'example.test'), {
      ...signer,
      canonicalization: 'relaxed/relaxed',
      signatureData: [signer],
    });
    expect(signed.errors).toEqual([]);
    const message = signed.signatures + unsigned.replace(/football\.example\.com/g, 'example.test');
    const data = await verify(message);
    expect(data.signatures).toHaveLength(1);
    expect(data.signatures[0]).toMatchObject({
      a: 'rsa-sha1',
      result: 'fail',
      reason: 'rsa-sha1 MUST NOT be used',
      rfc: 'RFC 8301 §3.1',
      key: { type: 'rsa', size: 2048 },
    });
    expect(data.signatures[0]!.bodyHash.match).toBe(true);
  });

  it('does not pass an Ed25519 signature whose key is published as SubjectPublicKeyInfo', async () => {
    const signer = {
      signingDomain: 'example.test',
      selector: 'spki',
      privateKey: spkiPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      algorithm: 'ed25519-sha256',
    };
    const body = unsigned.replace(/football\.example\.com/g, 'example.test');
    const signed = await dkimSign(body, {
      ...signer,
      canonicalization: 'relaxed/relaxed',
      signatureData: [signer],
    });
    expect(signed.errors).toEqual([]);
    const data = await verify(signed.signatures + body);
    expect(data.signatures).toHaveLength(1);
    // mailauth's strict mode refuses the key itself; the key record's finding says how to publish it
    expect(data.signatures[0]).toMatchObject({
      a: 'ed25519-sha256',
      result: 'permerror',
      reason: 'invalid public key',
    });
    expect(data.signatures[0]!.key?.diagnostics.map((d) => d.code)).toContain('DKIM_ED25519_SPKI');
  });

  it('reports a signature the library cannot read beside the others it verifies', async () => {
    // an empty canonicalization stops mailauth altogether; the other signatures still get answers
    const broken =
      'DKIM-Signature: v=1; a=rsa-sha256; c=/; d=example.test; s=sha1; h=from; bh=AAAA; b=AAAA\r\n';
    const data = await verify(broken + rfc8463Signed);
    expect(data.signatures.map((s) => [s.s, s.c, s.result])).toEqual([
      ['sha1', '/', 'permerror'],
      ['brisbane', 'relaxed/relaxed', 'pass'],
      ['test', 'relaxed/relaxed', 'pass'],
    ]);
    expect(data.signatures[0]!.reason).toMatch(/^signature could not be verified: /);
  });

  it('answers a few hundred fuzzed DKIM-Signature fields and messages without a server error', async () => {
    const next = createRng(0xd1c1);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const tagValues: Record<string, readonly string[]> = {
      v: ['1', '2', '', 'DKIM1'],
      a: ['rsa-sha256', 'ed25519-sha256', 'rsa-sha1', 'rsa-', 'x-y', '', 'RSA-SHA256'],
      c: ['relaxed/relaxed', 'simple', 'relaxed', 'simple/relaxed', 'x/y', '/', ''],
      d: [
        'football.example.com',
        'example.test',
        'nowhere.test',
        '',
        '..',
        'a'.repeat(300),
        'bücher.test',
        '-x-',
      ],
      s: ['brisbane', 'test', 'sha1', 'missing', '', 'a b', 'x'.repeat(70)],
      h: ['from : to : subject', 'to', '', 'from:from:from', ':::', 'x'.repeat(500)],
      bh: ['2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=', '', '!!!', 'AAAA'],
      b: ['F45dVWDfMbQDGHJFlXUNB2HKfbCeLRyhDXgFpEL8Gwps', '', '====', 'A'.repeat(2000)],
      t: ['1528637909', '-1', '99999999999999999999', 'x', ''],
      x: ['1', '1528637910', '1e9', ''],
      l: ['0', '5', '-3', '99999999999', 'x'],
      i: ['@football.example.com', 'joe@elsewhere.test', '@', ''],
      q: ['dns/txt', 'dns', 'x'],
      z: ['From:joe|To:x', '=3D'],
    };
    const junk = ['', ';', '=', ';;;', '\u0000', '\ud800', '😀', '\r\n\t', 'dkim=pass'];
    const bodies = ['', 'Hi.\r\n', '\r\n\r\n', '.\r\n', 'x'.repeat(3000), '\n\n\n', 'ü\r\n'];
    let responses = 0;
    for (let n = 0; n < 300; n++) {
      const fields: string[] = [];
      const signatureCount = 1 + Math.floor(next() * 3);
      for (let k = 0; k < signatureCount; k++) {
        const tags = Object.keys(tagValues)
          .filter(() => next() < 0.75)
          .map((tag) => `${tag}=${pick(tagValues[tag]!)}`);
        if (next() < 0.3) tags.push(pick(junk));
        const separator = pick(['; ', ';', ';\r\n ', ' ; ']);
        fields.push(
          `${pick(['DKIM-Signature', 'dkim-signature', 'DKIM-Signature '])}: ${tags.join(separator)}`,
        );
      }
      let message = `${fields.join('\r\n')}\r\n${unsigned.slice(0, unsigned.indexOf('\r\n\r\n'))}\r\n\r\n${pick(bodies)}`;
      // some messages mutated at random positions: lost CRLFs, truncation, stray bytes
      if (next() < 0.3) {
        const at = Math.floor(next() * message.length);
        message = message.slice(0, at) + pick(junk) + message.slice(at + Math.floor(next() * 20));
      }
      if (next() < 0.1) message = message.replace(/\r\n/g, '\n');
      const response = await post(next() < 0.05 ? { message: pick([1, null, [], {}]) } : { message });
      expect(response.statusCode, `${response.body}\n${JSON.stringify(message)}`).toBeLessThan(500);
      responses++;
    }
    expect(responses).toBe(300);
  });
});
