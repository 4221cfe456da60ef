// POST /v1/arc/validate with seal keys served by the lab DNS server: a two-hop chain sealed by
// mailauth passes, a changed body or a changed older AAR breaks it with the reason and the
// instance, a seal whose key is not published fails with NXDOMAIN, more than 50 sets fail by
// structure, and bad requests get the 400 envelope. A fuzz of mutated chains never gives a 5xx.
import { generateKeyPairSync } from 'node:crypto';
import type { ArcValidateResult } from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { sealMessage } from 'mailauth';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const first = generateKeyPairSync('rsa', { modulusLength: 2048 });
const second = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (pair: typeof first) => pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const original = [
  'From: Joe <joe@origin.test>',
  'To: list@lists.example.test',
  'Subject: ARC test',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Message-ID: <arc-test@origin.test>',
  '',
  'Hello from the first hop.',
  '',
].join('\r\n');

async function seal(message: string, hop: { domain: string; selector: string; key: string; cv: string }) {
  const headers = await sealMessage(Buffer.from(message), {
    signingDomain: hop.domain,
    selector: hop.selector,
    privateKey: hop.key,
    authResults: `${hop.domain}; spf=pass smtp.mailfrom=origin.test`,
    cv: hop.cv,
  } as Parameters<typeof sealMessage>[1]);
  return headers.toString() + message;
}

const zones = {
  ...testTld,
  'hop1._domainkey.lists.example.test': { TXT: dkimKeyRecord(first.publicKey) },
  'hop2._domainkey.relay.example.test': { TXT: dkimKeyRecord(second.publicKey) },
};

let twoHops: string;
let unpublished: string;

beforeAll(async () => {
  const once = await seal(original, {
    domain: 'lists.example.test',
    selector: 'hop1',
    key: pem(first),
    cv: 'none',
  });
  twoHops = await seal(once, {
    domain: 'relay.example.test',
    selector: 'hop2',
    key: pem(second),
    cv: 'pass',
  });
  unpublished = await seal(original, {
    domain: 'lists.example.test',
    selector: 'gone',
    key: pem(first),
    cv: 'none',
  });
});

/** Syntactically complete ARC sets 1..count (unsigned: the structure check fails them first). */
function manySets(count: number): string {
  const lines: string[] = [];
  for (let i = count; i >= 1; i--) {
    const cv = i === 1 ? 'none' : 'pass';
    lines.push(`ARC-Seal: i=${i}; a=rsa-sha256; cv=${cv}; d=example.test; s=s; t=1; b=AAAA`);
    lines.push(
      `ARC-Message-Signature: i=${i}; a=rsa-sha256; c=relaxed/relaxed; d=example.test; s=s; h=from; bh=AAAA; b=AAAA`,
    );
    lines.push(`ARC-Authentication-Results: i=${i}; example.test; spf=pass`);
  }
  return `${lines.join('\r\n')}\r\nFrom: a@example.test\r\n\r\nbody\r\n`;
}

describeEachDatabase('POST /v1/arc/validate', (database) => {
  const tool = toolTestApp({ database, zones });
  const post = (body: unknown, headers?: Record<string, string>, url = '/v1/arc/validate') =>
    tool.post(url, body, headers);
  const validate = (record: string, domain = 'example.test') =>
    tool.data<ArcValidateResult>('/v1/arc/validate', { record, domain });

  it('needs a signed-in caller', async () => {
    const response = await post({ record: twoHops, domain: 'example.test' }, {});
    expect(response.statusCode).toBe(401);
  });

  it.each([
    {},
    { record: twoHops },
    { domain: 'example.test' },
    { record: '  \r\n', domain: 'example.test' },
    { record: twoHops, domain: ' ' },
  ])('answers %j with the required message', async (body) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: 'Domain and ARC headers are required' });
  });

  it('refuses unknown fields and wrong types', async () => {
    const unknown = await post({ record: twoHops, domain: 'example.test', extra: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().success).toBe(false);
    const wrong = await post({ record: 42, domain: ['example.test'] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().success).toBe(false);
  });

  it('refuses a record over 1 MiB', async () => {
    const response = await post({ record: `${twoHops}${'a'.repeat(1024 * 1024)}`, domain: 'example.test' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      error: 'ARC headers are too long: at most 1 MiB',
    });
  });

  it('passes a two-hop chain with both keys from DNS, also under /api/v1', async () => {
    const before = tool.dns.queries.length;
    const data = await validate(twoHops, 'Example.Test.');
    expect(data.valid).toBe(true);
    expect(data.domain).toBe('example.test');
    expect(data.chain).toEqual({
      result: 'pass',
      reason: null,
      instances: 2,
      failedInstance: null,
      oldestPass: 0,
    });
    expect(data.sets.map((s) => [s.instance, s.domain, s.selector, s.cv, s.withinDomain])).toEqual([
      [1, 'lists.example.test', 'hop1', 'none', true],
      [2, 'relay.example.test', 'hop2', 'pass', true],
    ]);
    for (const set of data.sets) {
      expect(set.seal).toMatchObject({ result: 'pass', reason: null, keyBits: 2048 });
      expect(set.messageSignature).toMatchObject({ result: 'pass', bodyHashMatches: true, keyBits: 2048 });
      expect(set.messageSignature.signedHeaders).toContain('from');
      expect(set.authenticationResults?.results).toEqual(['spf=pass smtp.mailfrom=origin.test']);
    }
    expect(data.sets[0]!.seal.dnsName).toBe('hop1._domainkey.lists.example.test');
    const asked = tool.dns.queries.slice(before).map((q) => q.name);
    expect(asked).toEqual(
      expect.arrayContaining(['hop1._domainkey.lists.example.test', 'hop2._domainkey.relay.example.test']),
    );
    const alias = await post(
      { record: twoHops, domain: 'example.test' },
      tool.signedIn,
      '/api/v1/arc/validate',
    );
    expect(alias.statusCode).toBe(200);
    expect(alias.json().data.chain.result).toBe('pass');
  });

  it('reads a paste with LF line endings (as a browser text area sends it)', async () => {
    const data = await validate(twoHops.replace(/\r\n/g, '\n'));
    expect(data.chain.result).toBe('pass');
  });

  it('verifies the seals of a header-only paste and says why the AMS needs the body', async () => {
    const headerOnly = twoHops.slice(0, twoHops.indexOf('From:'));
    const data = await validate(headerOnly);
    expect(data.sets.map((s) => s.seal.result)).toEqual(['pass', 'pass']);
    expect(data.sets[1]!.messageSignature.result).toBe('fail');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.diagnostics.map((d) => d.code)).toContain('ARC_NO_BODY');
  });

  it('fails a changed body at the newest AMS with the body-hash reason', async () => {
    const data = await validate(twoHops.replace('first hop', 'last hop'));
    expect(data.valid).toBe(false);
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.chain.reason).toMatch(/ARC-Message-Signature \(i=2\).*body hash did not verify/);
    expect(data.sets[1]!.messageSignature).toMatchObject({ result: 'fail', bodyHashMatches: false });
    expect(data.diagnostics.map((d) => d.code)).toContain('ARC_AMS_FAILED');
  });

  it('fails a changed older AAR at the seal that covers it', async () => {
    const data = await validate(
      twoHops.replace('i=1; lists.example.test; spf=pass', 'i=1; lists.example.test; spf=fail'),
    );
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.chain.reason).toMatch(/ARC-Seal of i=2 did not validate: seal signature did not verify/);
    expect(data.sets[1]!.seal.result).toBe('fail');
    expect(data.errors.some((e) => /ARC-Seal of i=2/.test(e))).toBe(true);
  });

  it('fails a seal whose key is not published, with NXDOMAIN', async () => {
    const data = await validate(unpublished, 'lists.example.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 1 });
    expect(data.sets[0]!.seal).toMatchObject({
      result: 'permerror',
      reason: 'no key for the seal (NXDOMAIN)',
      dnsName: 'gone._domainkey.lists.example.test',
    });
  });

  it('gives none for a message without ARC sets', async () => {
    const data = await validate(original);
    expect(data.chain).toEqual({
      result: 'none',
      reason: null,
      instances: 0,
      failedInstance: null,
      oldestPass: null,
    });
    expect(data.valid).toBe(false);
    expect(data.sets).toEqual([]);
    expect(data.diagnostics.map((d) => d.code)).toContain('ARC_NO_SETS');
  });

  it('fails more than 50 sets by RFC 8617 §5.2 step 1, before any key lookup', async () => {
    const before = tool.dns.queries.length;
    const data = await validate(manySets(51));
    expect(data.chain.result).toBe('fail');
    expect(data.chain.reason).toMatch(/more than 50 ARC sets/);
    expect(data.diagnostics.find((d) => d.code === 'ARC_TOO_MANY_SETS')?.rfc).toBe('RFC 8617 §5.2 step 1');
    expect(tool.dns.queries.length).toBe(before);
    const fifty = await validate(manySets(50));
    expect(fifty.diagnostics.map((d) => d.code)).not.toContain('ARC_TOO_MANY_SETS');
    expect(fifty.chain.instances).toBe(50);
  });

  it('never answers a mutated chain with a 5xx', async () => {
    const next = createRng(8617);
    const alphabet = [
      '',
      ';',
      '=',
      ' ',
      '\r\n',
      '\r\n ',
      'i=',
      'cv=fail',
      'a=rsa-sha1',
      ':',
      'x',
      '0',
      '99',
      '\u00e9',
    ];
    for (let round = 0; round < 400; round++) {
      const chars = [...twoHops];
      const edits = 1 + Math.floor(next() * 6);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * Math.min(chars.length, 2500));
        chars.splice(at, Math.floor(next() * 3), alphabet[Math.floor(next() * alphabet.length)]!);
      }
      const response = await post({ record: chars.join(''), domain: 'example.test' });
      expect(response.statusCode, `round ${round}: ${response.body.slice(0, 200)}`).toBe(200);
    }
  });
});
