import { describe, expect, it } from 'vitest';
import {
  arcFieldValue,
  arcMessageSignatureTags,
  arcSealTags,
  buildArcPreview,
  foldArcField,
  formatArcAuthenticationResults,
  formatArcTags,
} from './preview.ts';

/** Unfolds a field and reduces whitespace runs to one space, as the signing suite compares. */
function unfold(field: string): string {
  return field.replace(/\r?\n/g, '').replace(/[ \t]+/g, ' ');
}

describe('buildArcPreview', () => {
  it('writes the default fields in the standardized tag order', () => {
    const preview = buildArcPreview({ domain: 'Example.COM.', selector: 'ARC' });
    expect(unfold(preview.arcSeal)).toBe('ARC-Seal: a=rsa-sha256; b=; cv=none; d=example.com; i=1; s=arc');
    expect(unfold(preview.arcMessageSignature)).toBe(
      'ARC-Message-Signature: a=rsa-sha256; b=; bh=; c=relaxed/relaxed; d=example.com; h=from:to:subject:date; i=1; s=arc',
    );
    expect(preview.arcAuthenticationResults).toBe('ARC-Authentication-Results: i=1; example.com; arc=none');
    expect(preview.notes[0]).toMatch(/bh=.*b=.*computed when a message is sealed/);
  });

  it('leaves c= out for simple/simple and adds l= only with a body length', () => {
    const plain = buildArcPreview({
      domain: 'example.com',
      selector: 's',
      canonicalization: 'simple/simple',
    });
    expect(unfold(plain.arcMessageSignature)).not.toContain('c=');
    expect(plain.notes.join(' ')).toContain('The sealed field writes c=simple/simple');
    expect(buildArcPreview({ domain: 'example.com', selector: 's' }).notes.join(' ')).not.toContain(
      'c=simple',
    );
    expect(unfold(plain.arcMessageSignature)).not.toContain('l=');
    const limited = buildArcPreview({
      domain: 'example.com',
      selector: 's',
      canonicalization: 'simple/relaxed',
      bodyLength: 120,
      headers: ['From', 'Subject', 'Message-ID'],
      instance: 3,
      chain: 'pass',
      algorithm: 'ed25519-sha256',
    });
    expect(unfold(limited.arcMessageSignature)).toBe(
      'ARC-Message-Signature: a=ed25519-sha256; b=; bh=; c=simple/relaxed; d=example.com; h=from:subject:message-id; i=3; l=120; s=s',
    );
    expect(unfold(limited.arcSeal)).toBe('ARC-Seal: a=ed25519-sha256; b=; cv=pass; d=example.com; i=3; s=s');
    expect(limited.notes.some((note) => note.includes('l='))).toBe(true);
  });

  it('never writes t= in the preview', () => {
    const preview = buildArcPreview({ domain: 'example.com', selector: 's' });
    expect(preview.arcSeal).not.toMatch(/\bt=/);
    expect(preview.arcMessageSignature).not.toMatch(/\bt=/);
  });

  it('notes what the settings get wrong', () => {
    expect(buildArcPreview({}).notes[0]).toBe('Domain and selector are required');
    const sha1 = buildArcPreview({ domain: 'a.test', selector: 's', algorithm: 'rsa-sha1' });
    expect(sha1.notes.join(' ')).toContain('RFC 8301 §3.1');
    expect(buildArcPreview({ domain: 'a.test', selector: 's', instance: 2 }).notes.join(' ')).toContain(
      'cv=none is only for i=1',
    );
    expect(buildArcPreview({ domain: 'a.test', selector: 's', chain: 'pass' }).notes.join(' ')).toContain(
      'The first ARC set (i=1) has cv=none',
    );
  });
});

describe('foldArcField', () => {
  const signature = 'A'.repeat(172) + '==';
  const tags = arcMessageSignatureTags({
    algorithm: 'rsa-sha256',
    signature,
    bodyHash: 'KWSe46TZKCcDbH4klJPo+tjk5LWJnVRlP5pvjXFZYLQ=',
    canonicalization: 'relaxed/relaxed',
    domain: 'example.org',
    headers: ['mime-version', 'date', 'from', 'to', 'subject'],
    instance: 1,
    selector: 'dummy',
    timestamp: 12345,
  });

  it('folds only after a semicolon, never inside b=, and unfolds to the one-line form', () => {
    const field = foldArcField('ARC-Message-Signature', tags);
    const lines = field.split('\r\n');
    for (const line of lines.filter((line) => !line.startsWith(' b=')))
      expect(line.length).toBeLessThanOrEqual(78);
    expect(lines).toContain(` b=${signature};`);
    expect(lines.slice(0, -1).every((line) => line.endsWith(';'))).toBe(true);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(unfold(arcFieldValue(field))).toBe(formatArcTags(tags));
  });

  it('folds every tag but b= in the same place whatever the signature', () => {
    const signed = foldArcField('ARC-Message-Signature', tags);
    const empty = foldArcField(
      'ARC-Message-Signature',
      tags.map(([name, value]) => [name, name === 'b' ? '' : value] as const),
    );
    // removing b='s value and its folds from the signed field gives the unsigned one (RFC 6376 §3.7)
    expect(signed.replace(/b=[^;]*;/, 'b=;')).toBe(empty);
  });

  it('writes the seal tags a, b, cv, d, i, s, t', () => {
    const seal = arcSealTags({
      algorithm: 'rsa-sha256',
      signature: 'x',
      cv: 'pass',
      domain: 'example.org',
      instance: 2,
      selector: 'dummy',
      timestamp: 12346,
    });
    expect(formatArcTags(seal)).toBe('a=rsa-sha256; b=x; cv=pass; d=example.org; i=2; s=dummy; t=12346');
  });
});

describe('formatArcAuthenticationResults', () => {
  it('puts one result on each line', () => {
    expect(
      formatArcAuthenticationResults(1, 'lists.example.org', ['arc=none', 'spf=pass smtp.mfrom=a@b']),
    ).toBe('i=1; lists.example.org; arc=none;\r\n spf=pass smtp.mfrom=a@b');
    expect(formatArcAuthenticationResults(2, 'mx.test', [])).toBe('i=2; mx.test');
  });
});
