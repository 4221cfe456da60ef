import { describe, expect, it } from 'vitest';
import { parseArcHeaders } from './parse.ts';

const SIG = 'b=dGVzdA==';
const seal = (i: number | string, extra = '', cv = Number(i) === 1 ? 'none' : 'pass') =>
  `ARC-Seal: i=${i}; a=rsa-sha256; cv=${cv}; d=example.org; s=sel; t=12345;${extra}\r\n ${SIG}`;
const ams = (i: number | string, extra = '') =>
  `ARC-Message-Signature: i=${i}; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=sel;\r\n` +
  ` h=from:to:subject; bh=KWSe46TZKCcDbH4klJPo+tjk5LWJnVRlP5pvjXFZYLQ=;${extra} ${SIG}`;
const aar = (i: number | string) =>
  `ARC-Authentication-Results: i=${i}; mx.example.org; spf=pass smtp.mailfrom=a.test;\r\n dkim=pass header.d=a.test`;
const set = (i: number) => [seal(i), ams(i), aar(i)].join('\r\n');
const message = (...fields: string[]) => `${fields.join('\r\n')}\r\nFrom: a@a.test\r\n\r\nbody\r\n`;

const codes = (input: string) => parseArcHeaders(input).diagnostics.map((d) => d.code);

describe('parseArcHeaders', () => {
  it('groups a two-hop chain into sets by instance and finds no structure failure', () => {
    const result = parseArcHeaders(message(set(2), set(1)));
    expect(result.structure).toBeNull();
    expect(result.hasBody).toBe(true);
    expect(result.sets.map((s) => s.instance)).toEqual([1, 2]);
    const [one] = result.sets;
    expect(one!.seal!.tags!.map((t) => t.name)).toEqual(['i', 'a', 'cv', 'd', 's', 't', 'b']);
    expect(one!.authenticationResults).toMatchObject({
      authservId: 'mx.example.org',
      results: ['spf=pass smtp.mailfrom=a.test', 'dkim=pass header.d=a.test'],
    });
    expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('unfolds with LF line endings too and points spans and lines into the input', () => {
    const input = message(set(1)).replace(/\r\n/g, '\n');
    const result = parseArcHeaders(input);
    expect(result.structure).toBeNull();
    const field = result.fields[1]!;
    expect(field.line).toBe(3);
    expect(input.slice(field.span.start, field.span.end)).toMatch(/^ARC-Message-Signature:[^]*b=dGVzdA==\n$/);
    const h = field.tags!.find((t) => t.name === 'h')!;
    expect(input.slice(h.valueSpan.start, h.valueSpan.end)).toBe('from:to:subject');
  });

  it('says none when there are no ARC fields', () => {
    const result = parseArcHeaders('From: a@a.test\r\n\r\nbody');
    expect(result.fields).toEqual([]);
    expect(result.structure).toBeNull();
    expect(codes('From: a@a.test\r\n\r\nbody')).toEqual(['ARC_NO_SETS']);
  });

  it.each([
    ['a missing AMS', message(seal(1), aar(1)), 'ARC_MISSING_FIELD', 1],
    ['a duplicate seal', message(seal(1), set(1)), 'ARC_DUPLICATE_FIELD', 1],
    ['a gap', message(set(3), set(1)), 'ARC_INSTANCE_GAP', 2],
    ['cv=pass at i=1', message(seal(1, '', 'pass'), ams(1), aar(1)), 'ARC_CV_NOT_NONE', 1],
    ['cv=none at i=2', message(seal(2, '', 'none'), ams(2), aar(2), set(1)), 'ARC_CV_NOT_PASS', 2],
    [
      'cv=fail at the newest seal',
      message(seal(2, '', 'fail'), ams(2), aar(2), set(1)),
      'ARC_CHAIN_FAILED',
      2,
    ],
    ['i=0', message(seal(0), ams(1), aar(1)), 'ARC_INSTANCE_INVALID', null],
    ['i=x', message(seal(1), ams('x'), aar(1)), 'ARC_INSTANCE_INVALID', null],
    [
      'an AAR without its i= prefix',
      message(seal(1), ams(1), 'ARC-Authentication-Results: mx.example.org; i=1; spf=pass'),
      'ARC_AAR_I_NOT_FIRST',
      null,
    ],
    ['rsa-sha1', message(seal(1).replace('rsa-sha256', 'rsa-sha1'), ams(1), aar(1)), 'ARC_RSA_SHA1', 1],
    [
      'an unknown algorithm',
      message(seal(1), ams(1).replace('rsa-sha256', 'rsa-sha512'), aar(1)),
      'ARC_ALGORITHM_UNKNOWN',
      1,
    ],
    ['h= in a seal', message(seal(1, ' h=from;'), ams(1), aar(1)), 'ARC_SEAL_H_TAG', 1],
    [
      'arc-seal in AMS h=',
      message(seal(1), ams(1).replace('h=from', 'h=arc-seal:from'), aar(1)),
      'ARC_AMS_SIGNS_SEAL',
      1,
    ],
    ['a duplicate tag', message(seal(1, ' d=example.org;'), ams(1), aar(1)), 'ARC_DUPLICATE_TAG', 1],
    [
      'an upper-case tag name',
      message(seal(1).replace('s=sel', 'S=sel'), ams(1), aar(1)),
      'ARC_MISSING_TAG',
      1,
    ],
    ['an extra semicolon', message(seal(1, ';'), ams(1), aar(1)), 'ARC_EMPTY_TAG', 1],
    ['t= with a space', message(seal(1).replace('t=12345', 't=123 45'), ams(1), aar(1)), 'ARC_TAG_VALUE', 1],
    [
      'b= that is not base64',
      message(seal(1).replace(SIG, 'b=not_base64'), ams(1), aar(1)),
      'ARC_TAG_VALUE',
      1,
    ],
    [
      'an invalid d=',
      message(seal(1).replace('d=example.org', 'd=example..org'), ams(1), aar(1)),
      'ARC_TAG_VALUE',
      1,
    ],
  ])('fails the chain for %s', (_name, input, code, instance) => {
    const result = parseArcHeaders(input);
    expect(result.structure, JSON.stringify(result.diagnostics)).not.toBeNull();
    expect(result.structure!.code).toBe(code);
    expect(result.structure!.instance).toBe(instance);
    const diagnostic = result.diagnostics.find((d) => d.code === code)!;
    expect(diagnostic.severity).toBe('error');
    expect(diagnostic.rfc).toMatch(/^RFC (8617|6376|8301|8463)/);
    expect(diagnostic.requirement).toMatch(/^MUST/);
  });

  it('fails more than 50 sets at step 1, before anything else', () => {
    const fields: string[] = [];
    for (let i = 51; i >= 1; i--) fields.push(set(i));
    const result = parseArcHeaders(message(...fields));
    expect(result.structure).toMatchObject({ code: 'ARC_TOO_MANY_SETS', instance: null });
    expect(result.structure!.reason).toBe('more than 50 ARC sets (51)');
    // i=51 is also out of range, which is reported beside it
    expect(codes(message(...fields))).toContain('ARC_INSTANCE_INVALID');
  });

  it('checks the syntax of the newest AMS only; an older AMS gets warnings', () => {
    const broken = ams(1).replace('t=', '').replace('bh=KWSe', 'bh=!KWSe');
    const result = parseArcHeaders(message(set(2), seal(1), broken, aar(1)));
    expect(result.structure).toBeNull();
    const finding = result.diagnostics.find((d) => d.code === 'ARC_TAG_VALUE')!;
    expect(finding.severity).toBe('warning');
    expect(finding.message).toMatch(/only the newest AMS is validated/);
  });

  it('accepts what the tag-list grammar allows: whitespace around = and ;, a trailing ;, unknown tags', () => {
    const relaxed = seal(1).replace('cv=none; d=', 'cv = none ;d=') + '; zz=1;';
    const result = parseArcHeaders(message(relaxed, ams(1), aar(1)));
    expect(result.structure).toBeNull();
    expect(codes(message(relaxed, ams(1), aar(1)))).toContain('ARC_TAG_UNKNOWN');
  });

  it('warns about what the suite accepts but senders should not write', () => {
    expect(codes(message(seal(1), ams(1).replace('h=from:to:subject', 'h=to:subject'), aar(1)))).toContain(
      'ARC_AMS_FROM_NOT_SIGNED',
    );
    expect(codes(message(seal(1), ams(1).replace('h=from:to:subject', 'h='), aar(1)))).toContain(
      'ARC_AMS_H_EMPTY',
    );
    expect(codes(message(seal(1), ams(1).replace('c=relaxed/relaxed; ', ''), aar(1)))).toContain(
      'ARC_AMS_NO_C',
    );
    expect(
      codes(message(seal(1), ams(1).replace('h=from', 'h=authentication-results:from'), aar(1))),
    ).toContain('ARC_AMS_SIGNS_AR');
  });

  it('notes a pasted block without a body', () => {
    const result = parseArcHeaders(`\r\n${set(1)}`);
    expect(result.hasBody).toBe(false);
    expect(result.structure).toBeNull();
    expect(result.diagnostics.map((d) => d.code)).toContain('ARC_NO_BODY');
  });
});
