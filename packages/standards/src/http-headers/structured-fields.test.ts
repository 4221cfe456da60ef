import { describe, expect, it } from 'vitest';
import { adviseOnPermissionsPolicy } from './permissions-policy.ts';
import { parseDictionary, StructuredFieldError } from './structured-fields.ts';

describe('parseDictionary (RFC 9651 §4.2.2)', () => {
  it('reads items, inner lists, parameters and bare keys', () => {
    const dictionary = parseDictionary(
      'camera=(), geolocation=(self "https://maps.example"), fullscreen=*, a=?0, b;x=1, c=-1.5',
    );
    expect(dictionary.get('camera')).toEqual({ list: [], params: new Map() });
    expect(dictionary.get('geolocation')).toEqual({
      list: [
        { item: { type: 'token', value: 'self' }, params: new Map() },
        { item: { type: 'string', value: 'https://maps.example' }, params: new Map() },
      ],
      params: new Map(),
    });
    expect(dictionary.get('fullscreen')).toEqual({ item: { type: 'token', value: '*' }, params: new Map() });
    expect(dictionary.get('a')).toEqual({ item: { type: 'boolean', value: false }, params: new Map() });
    expect(dictionary.get('b')).toEqual({
      item: { type: 'boolean', value: true },
      params: new Map([['x', { type: 'integer', value: 1 }]]),
    });
    expect(dictionary.get('c')).toEqual({ item: { type: 'decimal', value: -1.5 }, params: new Map() });
  });

  it.each(['camera=(self', 'Camera=()', 'a=1,', 'a=1 b=2', 'a="unterminated', 'a=(x,y)', 'a=1.2345'])(
    '%j is not a dictionary',
    (text) => {
      expect(() => parseDictionary(text)).toThrow(StructuredFieldError);
    },
  );
});

describe('adviseOnPermissionsPolicy', () => {
  it('advises setting it, or replacing Feature-Policy', () => {
    expect(adviseOnPermissionsPolicy(null, null).recommendation?.description).toMatch(
      /Without Permissions-Policy/,
    );
    expect(adviseOnPermissionsPolicy(null, "camera 'none'").recommendation?.description).toMatch(
      /superseded/,
    );
  });

  it('flags powerful features open to every origin', () => {
    const advice = adviseOnPermissionsPolicy('camera=*, microphone=(), payment=(*)', null);
    expect(advice.status).toBe('WARN');
    expect(advice.recommendation?.description).toMatch(/every origin use camera, payment/);
    expect(advice.findings).toContain('Denied to everyone: microphone.');
  });
});
