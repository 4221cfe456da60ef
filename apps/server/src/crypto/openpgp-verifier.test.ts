import { validateSecurityTxt } from '@rfckit/standards';
import { createCleartextMessage, generateKey, readPrivateKey, sign, type PrivateKey } from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPgpVerifier } from './openpgp-verifier.ts';

const inThirtyDays = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
const text = [
  'Canonical: https://example.com/.well-known/security.txt',
  'Contact: mailto:security@example.com',
  'Encryption: https://example.com/pgp-key.txt',
  '-X-Note: lines starting with a dash are escaped when signed',
  `Expires: ${inThirtyDays}`,
  '',
].join('\n');

interface TestKey {
  privateKey: PrivateKey;
  publicKey: string;
  keyId: string;
  fingerprint: string;
}

async function newKey(email: string): Promise<TestKey> {
  const pair = await generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ name: 'Security', email }],
  });
  const privateKey = await readPrivateKey({ armoredKey: pair.privateKey });
  return {
    privateKey,
    publicKey: pair.publicKey,
    keyId: privateKey.getKeyID().toHex().toUpperCase(),
    fingerprint: privateKey.getFingerprint().toUpperCase(),
  };
}

async function signed(content: string, ...keys: TestKey[]): Promise<string> {
  const message = await createCleartextMessage({ text: content });
  return sign({ message, signingKeys: keys.map((k) => k.privateKey) });
}

describe('openPgpVerifier', () => {
  let signer: TestKey;
  let stranger: TestKey;
  let file: string;

  beforeAll(async () => {
    [signer, stranger] = await Promise.all([newKey('security@example.com'), newKey('someone@example.net')]);
    file = await signed(text, signer);
  });

  it('produces a file our parser sees as a complete, dash-escaped cleartext signature', async () => {
    expect(file).toContain('\n- -X-Note: lines starting');
    const result = await validateSecurityTxt(file);
    expect(result.parsed?.signature?.signers.map((s) => s.keyId)).toEqual([signer.keyId]);
    // read as the field '-X-Note' once unescaped
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['unknown_field', 7],
      ['signature_not_verified', 10],
    ]);
  });

  it('reports a good signature with the signer, its user ID and the signing time', async () => {
    const verification = await openPgpVerifier.verifyCleartext(file, signer.publicKey);
    expect(verification).toMatchObject({
      status: 'good',
      keyId: signer.keyId,
      fingerprint: signer.fingerprint,
      userIds: ['Security <security@example.com>'],
    });
    if (verification.status !== 'good') throw new Error('not good');
    expect(Date.parse(verification.created ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reports a bad signature when the signed text was changed', async () => {
    const tampered = file.replace('mailto:security@example.com', 'mailto:attacker@example.net');
    expect(tampered).not.toBe(file);
    const verification = await openPgpVerifier.verifyCleartext(tampered, signer.publicKey);
    expect(verification).toMatchObject({ status: 'bad', keyId: signer.keyId });
  });

  it('reports the wrong key when someone else signed', async () => {
    expect(await openPgpVerifier.verifyCleartext(file, stranger.publicKey)).toEqual({
      status: 'wrong-key',
      signerKeyIds: [signer.keyId],
      suppliedKeyIds: [stranger.keyId],
    });
  });

  it('finds the right key among several supplied, and the right signature among several', async () => {
    const both = `${stranger.publicKey}\n${signer.publicKey}`;
    expect((await openPgpVerifier.verifyCleartext(file, both)).status).toBe('good');
    const twice = await signed(text, stranger, signer);
    expect(await openPgpVerifier.verifyCleartext(twice, signer.publicKey)).toMatchObject({
      status: 'good',
      keyId: signer.keyId,
    });
  });

  it('uses only the public part of a pasted private key', async () => {
    const armoredPrivate = signer.privateKey.armor();
    expect((await openPgpVerifier.verifyCleartext(file, armoredPrivate)).status).toBe('good');
  });

  it('says when the key cannot be read', async () => {
    const verification = await openPgpVerifier.verifyCleartext(file, 'not a key');
    expect(verification.status).toBe('key-invalid');
  });

  it('gives the validator good, bad and wrong-key verdicts', async () => {
    const options = { verifier: openPgpVerifier };
    const good = await validateSecurityTxt(file, { ...options, publicKey: signer.publicKey });
    expect(good.valid).toBe(true);
    expect(good.diagnostics.find((d) => d.code === 'signature_good')?.message).toContain(signer.fingerprint);

    const bad = await validateSecurityTxt(
      file.replace('Contact: mailto:security@', 'Contact: mailto:secure@'),
      { ...options, publicKey: signer.publicKey },
    );
    expect(bad.valid).toBe(false);
    expect(bad.diagnostics.map((d) => d.code)).toContain('signature_bad');

    const wrong = await validateSecurityTxt(file, { ...options, publicKey: stranger.publicKey });
    expect(wrong.valid).toBe(false);
    expect(wrong.diagnostics.map((d) => d.code)).toContain('signature_wrong_key');
  });
});
