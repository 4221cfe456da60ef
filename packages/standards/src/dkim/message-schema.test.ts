import { describe, expect, it } from 'vitest';

import { dkimMessageMaxBytes, dkimVerifyMessageBody } from './message-schema.ts';

function error(body: unknown): string | undefined {
  const parsed = dkimVerifyMessageBody.safeParse(body);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('dkimVerifyMessageBody', () => {
  it.each([{}, { message: '' }, { message: ' \r\n\t' }])('asks for a message in %j', (body) => {
    expect(error(body)).toBe('Message is required');
  });

  it('counts the cap in UTF-8 bytes, not characters', () => {
    const half = dkimMessageMaxBytes / 2;
    // two bytes each: exactly the cap, then one byte over it
    expect(error({ message: 'é'.repeat(half) })).toBeUndefined();
    expect(error({ message: `${'é'.repeat(half)}a` })).toBe('Message is larger than 5 MiB');
    // four bytes for a surrogate pair, three for a lone surrogate (encoded as U+FFFD)
    expect(error({ message: '😀'.repeat(dkimMessageMaxBytes / 4) })).toBeUndefined();
    expect(error({ message: `${'😀'.repeat(dkimMessageMaxBytes / 4 - 1)}\ud800\ud800` })).toBe(
      'Message is larger than 5 MiB',
    );
  });

  it('refuses other fields', () => {
    expect(error({ message: 'From: a@example.com', extra: 1 })).toBeDefined();
  });
});
