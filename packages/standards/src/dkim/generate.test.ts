import { beforeAll, describe, expect, it } from 'vitest';
import { encodeDkimNotes, generateDkimRecord } from './generate.ts';
import { ed25519Key, rsaSpki } from './test-keys.ts';
import { validateDkimRecord } from './validate.ts';

let rsa2048 = '';
let rsa4096 = '';
let rsa1024 = '';
let rsa512 = '';
let ed: { raw: string; spki: string };

beforeAll(async () => {
  const generated = await Promise.all([512, 1024, 2048, 4096].map(rsaSpki));
  [rsa512, rsa1024, rsa2048, rsa4096] = generated as [string, string, string, string];
  ed = await ed25519Key();
});

function pem(base64: string): string {
  return `-----BEGIN PUBLIC KEY-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

describe('generateDkimRecord', () => {
  it.each([
    '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
    '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkq\n-----END ENCRYPTED PRIVATE KEY-----',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----',
  ])('refuses a private key pasted as the public key, saying so (%#)', (publicKey) => {
    const outcome = generateDkimRecord({ domain: 'example.com', selector: 's1', publicKey });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error).toMatch(/^This is a private key: keep it secret and never publish it/);
  });

  it('refuses a whole key record pasted as the public key, pointing to p=', () => {
    const outcome = generateDkimRecord({
      domain: 'example.com',
      selector: 's1',
      publicKey: `v=DKIM1; k=rsa; p=${rsa2048}`,
    });
    expect(outcome).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^This is a key record, not a public key: paste only the value of its p= tag/,
      ),
    });
  });

  it('writes an rsa-sha256 record with the spec defaults', () => {
    const outcome = generateDkimRecord({ domain: 'Example.COM.', selector: 'default', publicKey: rsa2048 });
    expect(outcome).toEqual({
      ok: true,
      result: {
        record: `v=DKIM1; k=rsa; h=sha256; s=email; p=${rsa2048}`,
        dnsName: 'default._domainkey.example.com',
        txtStrings: [
          `v=DKIM1; k=rsa; h=sha256; s=email; p=${rsa2048}`.slice(0, 255),
          `v=DKIM1; k=rsa; h=sha256; s=email; p=${rsa2048}`.slice(255),
        ],
        zoneFileLine: expect.stringMatching(
          /^default\._domainkey\.example\.com\. IN TXT "v=DKIM1; [^"]{246}" "[^"]+"$/,
        ),
        signer: { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'example.com', s: 'default' },
        warnings: [],
        diagnostics: [],
      },
    });
  });

  it('accepts a PEM key and unwraps an Ed25519 SubjectPublicKeyInfo', () => {
    const outcome = generateDkimRecord({
      domain: 'example.com',
      selector: 'ed',
      publicKey: pem(ed.spki),
      algorithm: 'ed25519-sha256',
      canonicalization: 'simple/relaxed',
      serviceType: '*',
      flags: ['s', 'y'],
    });
    expect(outcome.ok && outcome.result.record).toBe(`v=DKIM1; k=ed25519; h=sha256; t=y:s; p=${ed.raw}`);
    expect(outcome.ok && outcome.result.signer.c).toBe('simple/relaxed');
  });

  it('generates rsa-sha1 only with the RFC 8301 MUST NOT warning', () => {
    const outcome = generateDkimRecord({
      domain: 'example.com',
      selector: 's',
      publicKey: rsa2048,
      algorithm: 'rsa-sha1',
    });
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.result.record).toBe(`v=DKIM1; k=rsa; s=email; p=${rsa2048}`);
    expect(outcome.result.signer.a).toBe('rsa-sha1');
    expect(outcome.result.diagnostics[0]).toMatchObject({
      code: 'DKIM_RSA_SHA1',
      requirement: 'MUST NOT',
      rfc: 'RFC 8301 §3.1',
    });
  });

  it('passes on the key-size warning and splits long records into 255-character strings', () => {
    const short = generateDkimRecord({ domain: 'example.com', selector: 's', publicKey: rsa1024 });
    expect(short.ok && short.result.warnings).toEqual([expect.stringContaining('1024 bits')]);
    const long = generateDkimRecord({ domain: 'example.com', selector: 's', publicKey: rsa4096 });
    if (!long.ok) throw new Error(long.error);
    expect(long.result.txtStrings.length).toBe(Math.ceil(long.result.record.length / 255));
    expect(long.result.txtStrings.every((part) => part.length <= 255)).toBe(true);
    expect(long.result.txtStrings.join('')).toBe(long.result.record);
    // the zone-file line reads back as the same record
    expect(validateDkimRecord(long.result.zoneFileLine).parsed?.record).toBe(long.result.record);
  });

  it.each([
    [{ domain: '', selector: 's', publicKey: 'x' }, 'Domain, selector, and public key are required'],
    [
      { domain: 'example.com', selector: ' ', publicKey: 'x' },
      'Domain, selector, and public key are required',
    ],
    [
      { domain: 'example.com', selector: 's', publicKey: '' },
      'Domain, selector, and public key are required',
    ],
    [
      { domain: 'exa mple.com', selector: 's', publicKey: 'AAAA' },
      "'exa mple.com' is not a valid domain name",
    ],
    [
      { domain: 'example.com', selector: '-s', publicKey: 'AAAA' },
      expect.stringContaining('is not a valid selector'),
    ],
    [
      { domain: 'example.com', selector: 's', publicKey: 'not base64!' },
      expect.stringContaining('not valid base64'),
    ],
  ])('refuses %j', (input, error) => {
    expect(generateDkimRecord(input)).toEqual({ ok: false, error });
  });

  it('refuses keys a verifier would reject', () => {
    expect(generateDkimRecord({ domain: 'example.com', selector: 's', publicKey: rsa512 })).toEqual({
      ok: false,
      error: expect.stringContaining('512 bits'),
    });
    expect(
      generateDkimRecord({
        domain: 'example.com',
        selector: 's',
        publicKey: rsa2048,
        algorithm: 'ed25519-sha256',
      }),
    ).toEqual({ ok: false, error: expect.stringContaining('k=rsa') });
  });
});

describe('encodeDkimNotes', () => {
  it.each([
    ['plain note', 'plain note'],
    ['a;b=c', 'a=3Bb=3Dc'],
    ['  café ', 'caf=C3=A9'],
  ])('%j → %j', (notes, encoded) => {
    expect(encodeDkimNotes(notes)).toBe(encoded);
  });
});
