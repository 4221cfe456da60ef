// Fuzz of DKIM message verification (issue 7): 10,000 random and mutated DKIM-Signature header
// fields on the RFC 8463 A.3 message through verifyMessage in-process, keys served by the fixture
// resolver. Seeded, so a failing input can be replayed. Every call must settle (no exception, no
// hang) with a result of the API's shape and every signature result one of RFC 8601's words.
// All 10,000 are verified in full (key lookup, canonicalization, crypto where the fields get that
// far): a mutated field mostly fails before the crypto, so this stays within seconds.
import {
  createFixtureResolver,
  dkimSignatureResults,
  dkimVerifyMessageResultSchema,
  type FixtureZones,
} from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { describe, expect, it } from 'vitest';
import { verifyMessage } from '../src/tools/dkim/verify-message.ts';
import { rfc8463 } from './helpers/dkim-fixtures.ts';

const { rsaKey, signatures, unsigned: rest } = rfc8463;

const zones: FixtureZones = {
  'brisbane._domainkey.football.example.com': { TXT: rfc8463.brisbaneRecord },
  'test._domainkey.football.example.com': { TXT: rfc8463.testRecord },
  // keys a mutated s= or d= may reach: revoked, broken, of the wrong type, not for email, two records
  'revoked._domainkey.football.example.com': { TXT: 'v=DKIM1; p=' },
  'broken._domainkey.football.example.com': { TXT: 'v=DKIM1; k=rsa; p=AAAA' },
  'wrong._domainkey.football.example.com': { TXT: `v=DKIM1; k=ed25519; p=${rsaKey}` },
  'tlsrpt._domainkey.football.example.com': { TXT: `v=DKIM1; s=tlsrpt; p=${rsaKey}` },
  'two._domainkey.football.example.com': { TXT: ['v=DKIM1; p=', `v=DKIM1; p=${rsaKey}`] },
  'alias._domainkey.football.example.com': { CNAME: 'test._domainkey.football.example.com' },
  'slow._domainkey.football.example.com': { timeout: true },
  'fail._domainkey.football.example.com': { servfail: true },
};

const tagValues: Record<string, readonly string[]> = {
  v: ['1', '2', '', 'DKIM1', '01'],
  a: ['rsa-sha256', 'ed25519-sha256', 'rsa-sha1', 'ed25519-sha1', 'rsa-', 'x-y', '', 'RSA-SHA256'],
  c: ['relaxed/relaxed', 'simple', 'relaxed', 'simple/relaxed', 'x/y', '/', ''],
  d: [
    'football.example.com',
    'FOOTBALL.example.com.',
    'example.com',
    'nowhere.test',
    '',
    '..',
    'a'.repeat(300),
  ],
  s: [
    'brisbane',
    'test',
    'revoked',
    'broken',
    'wrong',
    'tlsrpt',
    'two',
    'alias',
    'slow',
    'fail',
    'missing',
    '',
    'a b',
  ],
  h: [
    'from : to : subject : date : message-id',
    'from',
    'to',
    '',
    'from:from:from:from:from',
    ':::',
    'x'.repeat(500),
  ],
  bh: ['2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=', '', '!!!', 'AAAA', '2jUSOH9N htVGCQWN'],
  b: [
    '/gCrinpcQOoIfuHNQIbq4pgh9kyIK3AQUdt9OdqQehSwhEIug4D11BusFa3bT3FY5OsU7ZbnKELq+eXdp1Q1Dw==',
    '',
    '====',
    'A'.repeat(600),
  ],
  t: ['1528637909', '-1', '99999999999999999999', 'x', ''],
  x: ['1', '1528637910', '4102444800', '1e9', ''],
  l: ['0', '5', '-3', '99999999999', 'x'],
  i: ['@football.example.com', 'joe@football.example.com', 'joe@elsewhere.test', '@', ''],
  q: ['dns/txt', 'dns', 'x', ''],
  z: ['From:joe|To:x', '=3D', '|'],
};
const required = new Set(['v', 'a', 'b', 'bh', 'd', 'h', 's']);
const junk = ['', ';', '=', ';;;', '\u0000', '\ud800', '😀', '\r\n', '\r\n\t', '\n', 'b=', ':', ' '];

// seeded: the same inputs on every run
const next = createRng(0x8463);
const below = (n: number): number => Math.floor(next() * n);
const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;

/** A real signature field with a few edits: deleted, inserted, replaced or repeated stretches. */
function mutatedField(): string {
  let field = pick(signatures);
  for (let edits = 1 + below(4); edits > 0; edits--) {
    const at = below(field.length + 1);
    switch (below(5)) {
      case 4: {
        // one tag's value swapped for another from the list (s=slow reaches a failing lookup)
        const tag = pick(Object.keys(tagValues));
        field = field.replace(
          new RegExp(`(^|[;:] *)${tag}=[^;]*`),
          (_, lead: string) => `${lead}${tag}=${pick(tagValues[tag]!)}`,
        );
        break;
      }
      case 0:
        field = field.slice(0, at) + field.slice(at + 1 + below(12));
        break;
      case 1:
        field = field.slice(0, at) + pick(junk) + field.slice(at);
        break;
      case 2:
        field = field.slice(0, at) + String.fromCharCode(32 + below(95)) + field.slice(at + 1);
        break;
      default:
        field = field.slice(0, at) + field.slice(at, at + below(30)) + field.slice(at);
    }
  }
  return field;
}

/** A field of random tags from the list above, some repeated, some junk. */
function randomField(): string {
  // the tags RFC 6376 §3.5 requires are mostly there, so many fields get as far as the key lookup
  const tags = Object.keys(tagValues)
    .filter((tag) => next() < (required.has(tag) ? 0.95 : 0.4))
    .map((tag) => `${tag}=${pick(tagValues[tag]!)}`);
  if (next() < 0.2) tags.push(`${pick(Object.keys(tagValues))}=${pick(junk)}`);
  if (next() < 0.2) tags.push(pick(junk));
  for (let i = tags.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [tags[i], tags[j]] = [tags[j]!, tags[i]!];
  }
  const name = pick(['DKIM-Signature', 'dkim-signature', 'DKIM-Signature ', 'DKIM-Signature']);
  return `${name}: ${tags.join(pick(['; ', ';', ';\r\n ', ' ; ']))}`;
}

function fuzzedMessage(): string {
  const fields: string[] = [];
  const count = next() < 0.02 ? 20 + below(30) : 1 + below(3);
  for (let k = 0; k < count; k++) {
    // the real field now and then, so mutated fields sit beside one that passes
    const choice = next();
    fields.push(choice < 0.45 ? mutatedField() : choice < 0.9 ? randomField() : pick(signatures));
  }
  return `${fields.join('\r\n')}\r\n${rest}`;
}

/** Settles the call or fails the test after `ms`: a hang must not pass as a slow success. */
async function within<T>(ms: number, work: Promise<T>, input: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms for ${JSON.stringify(input)}`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('DKIM-Signature fuzz', () => {
  // the fixture resolver answers at once (a `timeout` name too), so one verification is
  // milliseconds; the bound is far above that and only catches a verifier that never settles
  const PER_CALL_MS = 5000;
  const now = new Date(1_600_000_000_000);

  it('verifies the unmutated message: both signatures pass', async () => {
    const result = await verifyMessage(rfc8463.signed, {
      resolver: createFixtureResolver(zones),
      now,
    });
    expect(result.signatures.map((s) => [s.s, s.result])).toEqual([
      ['brisbane', 'pass'],
      ['test', 'pass'],
    ]);
  });

  it('settles 10,000 random and mutated signature fields with well-formed results', async () => {
    const resolver = createFixtureResolver(zones);
    const seen = new Set<string>();
    let verified = 0;
    for (let n = 0; n < 10_000; n++) {
      const message = fuzzedMessage();
      const result = await within(PER_CALL_MS, verifyMessage(message, { resolver, now }), message);
      const shape = dkimVerifyMessageResultSchema.safeParse(result);
      expect(shape.success, `${JSON.stringify(message)}: ${shape.error?.message}`).toBe(true);
      for (const signature of result.signatures) {
        expect(dkimSignatureResults).toContain(signature.result);
        seen.add(signature.result);
      }
      expect(result.summary.passed).toBe(result.signatures.filter((s) => s.result === 'pass').length);
      resolver.clearQueries(); // the resolver logs every query; keep the log small
      verified++;
    }
    expect(verified).toBe(10_000);
    // the inputs reach past the parser: keys are fetched, signatures checked and failed
    for (const result of ['pass', 'fail', 'permerror', 'temperror']) expect(seen).toContain(result);
  }, 60_000);
});
