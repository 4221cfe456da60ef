// POST /v1/arc/generate with keys in the lab DNS server: a sealed message passes mailauth's own
// ARC verification (not our validate.ts), with a supplied key and with a fresh one; a second hop
// gives i=2 cv=pass; a broken chain is sealed with cv=fail and a cv=fail chain is not sealed
// again; bad input gets the spec's messages.
import { generateKeyPairSync } from 'node:crypto';
import type { ArcGenerateResult } from '@rfckit/standards';
import { expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord, mailauthArcVerify } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaPem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const rsaPkcs1Pem = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const rsaRecord = dkimKeyRecord(rsa.publicKey);
const ed = generateKeyPairSync('ed25519');
const edPem = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const edRecord = dkimKeyRecord(ed.publicKey);

const message = [
  'Authentication-Results: mx.example.test; spf=pass smtp.mailfrom=alice@sender.test;',
  '  dkim=pass header.d=sender.test',
  'Authentication-Results: other.test; spf=fail',
  'From: Alice <alice@sender.test>',
  'To: list@example.test',
  'Subject: ARC sealing test',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Message-ID: <arc-test@sender.test>',
  '',
  'Hello,',
  'this message goes through a mailing list.',
  '',
].join('\r\n');

const zones = {
  ...testTld,
  'arc._domainkey.example.test': { TXT: rsaRecord },
  'ed._domainkey.relay.test': { TXT: edRecord },
};

describeEachDatabase('POST /v1/arc/generate', (database) => {
  const tool = toolTestApp({ database, zones });
  const post = (body: unknown, headers?: Record<string, string>) =>
    tool.post('/v1/arc/generate', body, headers);
  const seal = (body: Record<string, unknown>) => tool.data<ArcGenerateResult>('/v1/arc/generate', body);
  const independentArc = (sealed: string) => mailauthArcVerify(sealed, tool.dns.address);

  it('needs a signed-in caller', async () => {
    const response = await post({ domain: 'example.test', selector: 'arc', message }, {});
    expect(response.statusCode).toBe(401);
  });

  it.each([
    [{ selector: 'arc', message }, 'Domain and selector are required'],
    [{ domain: 'example.test', selector: '  ', message }, 'Domain and selector are required'],
    [{ domain: 'example.test', selector: 'arc' }, 'Message is required to seal'],
    [{ domain: 'example.test', selector: 'arc', message: '\r\n ' }, 'Message is required to seal'],
  ])('answers bad request %# with the spec message', async (body, error) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error, code: 'VALIDATION_ERROR' });
  });

  it.each([
    ['not PEM at all', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', /must be PEM/],
    [
      'damaged PEM',
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
      /could not be read/,
    ],
    ['a public key', rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), /must be PEM/],
    ['an Ed25519 key for rsa-sha256', edPem, /is an Ed25519 key, but rsa-sha256 needs an RSA key/],
  ])('refuses %s as the private key with a clear 400', async (_what, privateKey, error) => {
    const response = await post({ domain: 'example.test', selector: 'arc', message, privateKey });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'INVALID_KEY',
      error: expect.stringMatching(error),
    });
  });

  it('seals with a supplied key, and mailauth validates the chain', async () => {
    const data = await seal({
      domain: 'Example.TEST',
      selector: 'arc',
      authservId: 'mx.example.test',
      message,
      privateKey: rsaPkcs1Pem,
      timestamp: 1_790_000_000,
    });
    expect(data).toMatchObject({ instance: 1, cv: 'none', algorithm: 'rsa-sha256', warnings: [] });
    expect(data.key).toEqual({
      generated: false,
      privateKeyPem: null,
      dnsName: 'arc._domainkey.example.test',
      record: `v=DKIM1; k=rsa; h=sha256; s=email; p=${rsaRecord.slice(rsaRecord.indexOf('p=') + 2)}`,
      keyBits: 2048,
    });
    // only mx.example.test's results, one per line, with arc= first
    expect(data.arcAuthenticationResults).toBe(
      'i=1; mx.example.test; arc=none;\r\n spf=pass smtp.mailfrom=alice@sender.test;\r\n dkim=pass header.d=sender.test',
    );
    expect(data.arcMessageSignature.replace(/\r\n /g, ' ')).toMatch(
      /^a=rsa-sha256; b=[A-Za-z0-9+/]{342}==; bh=[A-Za-z0-9+/]{43}=; c=relaxed\/relaxed; d=example\.test; h=from:to:subject:date; i=1; s=arc; t=1790000000$/,
    );
    expect(data.arcSeal.replace(/\r\n /g, ' ')).toMatch(
      /^a=rsa-sha256; b=[A-Za-z0-9+/]{342}==; cv=none; d=example\.test; i=1; s=arc; t=1790000000$/,
    );
    expect(data.headers).toBe(
      [
        `ARC-Seal: ${data.arcSeal}`,
        `ARC-Message-Signature: ${data.arcMessageSignature}`,
        `ARC-Authentication-Results: ${data.arcAuthenticationResults}`,
      ].join('\r\n'),
    );
    expect(data.sealedMessage).toBe(`${data.headers}\r\n${message}`);

    const verdict = await independentArc(data.sealedMessage);
    expect(verdict.status.result, JSON.stringify(verdict.status)).toBe('pass');
    expect(verdict.i).toBe(1);
  });

  it('seals with a fresh key returned once with its record, and each hop adds a passing set', async () => {
    const first = await seal({
      domain: 'example.test',
      selector: 'fresh',
      message,
      canonicalization: 'simple/simple',
    });
    expect(first.key.generated).toBe(true);
    expect(first.key.keyBits).toBe(2048);
    expect(first.key.privateKeyPem).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/,
    );
    expect(first.key.dnsName).toBe('fresh._domainkey.example.test');
    expect(first.key.record).toMatch(/^v=DKIM1; k=rsa; h=sha256; s=email; p=MII/);
    // c=simple/simple is written out although it is the default: dkimpy reads a missing c= as relaxed
    expect(first.arcMessageSignature.replace(/\r\n /g, ' ')).toContain('; c=simple/simple; d=example.test;');
    tool.dns.update(first.key.dnsName, { TXT: first.key.record });
    expect((await independentArc(first.sealedMessage)).status.result).toBe('pass');

    // the second hop, another domain with an Ed25519 key: our DNS client finds the first key
    const before = tool.dns.queriesFor('fresh._domainkey.example.test').length;
    const second = await seal({
      domain: 'relay.test',
      selector: 'ed',
      algorithm: 'ed25519-sha256',
      privateKey: edPem,
      message: first.sealedMessage,
      // no instance or chain asked for: taken from the message, with nothing to warn about
      headers: ['from', 'subject', 'arc-authentication-results'],
      bodyLength: 10,
    });
    expect(tool.dns.queriesFor('fresh._domainkey.example.test').length).toBeGreaterThan(before);
    expect(second).toMatchObject({
      instance: 2,
      cv: 'pass',
      warnings: [],
      chain: { existingSets: 1, reason: null },
    });
    expect(second.arcAuthenticationResults).toBe('i=2; relay.test; arc=pass');
    expect(second.arcMessageSignature.replace(/\r\n /g, ' ')).toContain('i=2; l=10; s=ed;');
    const verdict = await independentArc(second.sealedMessage);
    expect(verdict.status.result, JSON.stringify(verdict.status)).toBe('pass');
    expect(verdict.i).toBe(2);
  });

  it('generates a fresh Ed25519 key with its raw-key record', async () => {
    const data = await seal({ domain: 'example.test', selector: 'ed', algorithm: 'ed25519-sha256', message });
    expect(data.key).toMatchObject({ generated: true, keyBits: 256 });
    expect(data.key.record).toMatch(/^v=DKIM1; k=ed25519; h=sha256; s=email; p=[A-Za-z0-9+/]{43}=$/);
    tool.dns.update('ed._domainkey.example.test', { TXT: data.key.record });
    expect((await independentArc(data.sealedMessage)).status.result).toBe('pass');
  });

  it('warns when the instance and chain settings disagree with the message', async () => {
    const data = await seal({
      domain: 'example.test',
      selector: 'arc',
      privateKey: rsaPem,
      message,
      instance: 3,
      chain: 'pass',
    });
    expect(data.instance).toBe(1);
    expect(data.cv).toBe('none');
    expect(data.warnings).toEqual([
      'Instance 3 was asked for, but the message has no ARC sets: this set is i=1 (RFC 8617 §4.2.1)',
      'cv=none was used, not cv=pass: the message has no ARC sets to validate (RFC 8617 §4.4)',
    ]);
  });

  it('seals a broken chain with cv=fail, and never seals a cv=fail chain again', async () => {
    const first = await seal({ domain: 'example.test', selector: 'arc', privateKey: rsaPem, message });
    // a list footer after the seal breaks the body hash of the newest ARC-Message-Signature
    const tampered = `${first.sealedMessage}-- \r\nlist footer\r\n`;
    const failed = await seal({
      domain: 'example.test',
      selector: 'arc',
      privateKey: rsaPem,
      message: tampered,
      instance: 2,
      chain: 'pass',
    });
    expect(failed.instance).toBe(2);
    expect(failed.cv).toBe('fail');
    expect(failed.chain.reason).toEqual(expect.any(String));
    expect(failed.warnings).toEqual([
      expect.stringMatching(
        /^cv=fail was used, not cv=pass: the existing ARC chain did not validate — the newest ARC-Message-Signature \(i=1\) did not validate: body hash did not verify/,
      ),
    ]);

    const response = await post({
      domain: 'example.test',
      selector: 'arc',
      privateKey: rsaPem,
      message: failed.sealedMessage,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      success: false,
      code: 'ARC_CHAIN_FAILED',
      error:
        'The newest ARC-Seal (i=2) already says cv=fail: a failed chain must not be sealed again (RFC 8617 §5.1)',
    });
  });

  it('seals a pasted message with LF line endings and UTF-8 results, keeping its line endings', async () => {
    const pasted = message
      .replace('dkim=pass header.d=sender.test', 'dkim=pass (clé vérifiée) header.d=sender.test')
      .replace(/\r\n/g, '\n');
    const data = await seal({
      domain: 'example.test',
      selector: 'arc',
      authservId: 'mx.example.test',
      privateKey: rsaPem,
      message: pasted,
      canonicalization: 'simple/relaxed',
    });
    expect(data.arcAuthenticationResults).toContain('dkim=pass (clé vérifiée) header.d=sender.test');
    expect(data.sealedMessage).toBe(`${data.headers.replace(/\r\n/g, '\n')}\n${pasted}`);
    expect(data.sealedMessage).not.toContain('\r');
    expect((await independentArc(data.sealedMessage)).status.result).toBe('pass');
  });

  it('signs rsa-sha1 only with the RFC 8301 warning', async () => {
    const data = await seal({
      domain: 'example.test',
      selector: 'arc',
      algorithm: 'rsa-sha1',
      privateKey: rsaPem,
      message,
    });
    expect(data.arcSeal).toMatch(/^a=rsa-sha1;/);
    expect(data.warnings.join(' ')).toContain('RFC 8301 §3.1');
  });
});
