import { describe, expect, it } from 'vitest';
import { countOf, endSentence, sentences } from './sentences.ts';

describe('endSentence', () => {
  it.each([
    ['no answer (2 tries of 2000 ms)', 'no answer (2 tries of 2000 ms).'],
    ['the DS does not match that key.', 'the DS does not match that key.'],
    ['  trailing space.  ', 'trailing space.'],
    ['is it?', 'is it?'],
    ['', ''],
  ])('%j → %j', (text, expected) => {
    expect(endSentence(text)).toBe(expected);
  });
});

describe('sentences', () => {
  it('closes every part once and leaves out empty ones', () => {
    expect(
      sentences(
        'The TLSA records could not be looked up: timed out (2 tries of 2000 ms).',
        null,
        '',
        'Senders defer mail',
      ),
    ).toBe('The TLSA records could not be looked up: timed out (2 tries of 2000 ms). Senders defer mail.');
  });
});

describe('countOf', () => {
  it.each([
    [0, 'records'],
    [1, 'record'],
    [2, 'records'],
  ])('%i gives the noun %s', (count, noun) => {
    expect(countOf(count, 'record')).toBe(`${count} ${noun}`);
  });
  it('takes an irregular plural', () => {
    expect(countOf(3, 'proxy', 'proxies')).toBe('3 proxies');
  });
});
