// Fuzz of the DKIM key-record parser and validator (issue 7): 10,000 random and mutated records,
// seeded so a failure repeats. Nothing may throw, and every result must have the shape the API
// promises, with spans inside the input and `valid`, `errors` and `warnings` agreeing with the
// diagnostics.
import { describe, expect, it } from 'vitest';
import { parseDkimRecord } from './parse.ts';
import { dkimValidationResultSchema } from './schema.ts';
import { validateDkimRecord } from './validate.ts';

// RFC 8463 Appendix A.2 keys, in the forms admins paste them
const rsaKey =
  'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWRiGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutACDfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3Ip3G+2kryOTIKT+l/K4w3QIDAQAB';
const ed25519Key = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
const seeds = [
  `v=DKIM1; k=rsa; p=${rsaKey}`,
  `v=DKIM1; k=ed25519; p=${ed25519Key}`,
  `test._domainkey.football.example.com. 3600 IN TXT ( "v=DKIM1; k=rsa; h=sha256; t=s; s=email; " "p=${rsaKey.slice(0, 100)}" "${rsaKey.slice(100)}" )`,
  `"v=DKIM1; k=ed25519; n=a\\032b; " "p=${ed25519Key}"`,
  'v=DKIM1; p=',
];

const tagNames = ['v', 'k', 'h', 'p', 's', 't', 'n', 'g', 'x', 'V', 'P', '', 'p p', 'é'];
const tagValues = [
  'DKIM1',
  'DKIM2',
  'rsa',
  'ed25519',
  'RSA',
  'sha1',
  'sha256:sha1',
  'sha512',
  'email',
  '*',
  'tlsrpt:email',
  'y:s',
  'y',
  '',
  ' ',
  rsaKey,
  ed25519Key,
  rsaKey.slice(0, 60),
  'AAAA',
  '====',
  'not base64!',
  '"',
  '\\',
  '\u0000',
  'x'.repeat(300),
];
const alphabet = ' ;="()\\\n\t=:/+Aa0\u00e9\u0000\u{1f600}\r';

/** A small linear congruential generator: the same sequence on every run. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
}

function mutate(base: string, random: (n: number) => number): string {
  let text = base;
  for (let edits = 1 + random(6); edits > 0; edits--) {
    const at = random(text.length + 1);
    const c = alphabet.charAt(random(alphabet.length));
    switch (random(5)) {
      case 0:
        text = text.slice(0, at) + text.slice(at + 1 + random(8));
        break;
      case 1:
        text = text.slice(0, at) + c + text.slice(at);
        break;
      case 2:
        text = text.slice(0, at) + c + text.slice(at + 1);
        break;
      case 3: {
        // duplicate a stretch: repeated tags, doubled quotes and parentheses
        const length = random(40);
        text = text.slice(0, at) + text.slice(at, at + length) + text.slice(at);
        break;
      }
      default:
        // flip one character of the key's base64, so the DER reader sees broken keys
        if (text.length > 0) {
          const i = text.length - 1 - random(Math.min(text.length, 200));
          text =
            text.slice(0, i) +
            String.fromCharCode((text.charCodeAt(i) + 1 + random(90)) % 128) +
            text.slice(i + 1);
        }
    }
  }
  return text;
}

function randomTagList(random: (n: number) => number): string {
  const tags: string[] = [];
  for (let count = random(9); count > 0; count--) {
    const name = tagNames[random(tagNames.length)]!;
    const value = tagValues[random(tagValues.length)]!;
    tags.push(`${' '.repeat(random(2))}${name}${random(8) === 0 ? '' : '='}${value}`);
  }
  const list = tags.join(random(6) === 0 ? ',' : ';') + (random(2) === 0 ? ';' : '');
  // sometimes as quoted strings, as copied from a zone file
  return random(4) === 0 ? `"${list.replace(/(.{1,40})/g, '$1" "')}"` : list;
}

function randomText(random: (n: number) => number): string {
  let text = '';
  for (let length = random(120); length > 0; length--) text += alphabet.charAt(random(alphabet.length));
  return text;
}

function check(input: string): void {
  parseDkimRecord(input);
  const result = validateDkimRecord(input);
  const shape = dkimValidationResultSchema.safeParse(result);
  expect(shape.success, `${JSON.stringify(input)}: ${shape.error?.message}`).toBe(true);
  expect(result.valid).toBe(result.errors.length === 0);
  expect(result.errors).toEqual(
    result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
  );
  expect(result.warnings).toEqual(
    result.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
  );
  if (result.valid) expect(result.parsed?.status).toBe('valid');
  for (const d of result.diagnostics) {
    if (!d.span) continue;
    expect(d.span.start).toBeGreaterThanOrEqual(0);
    expect(d.span.start).toBeLessThanOrEqual(d.span.end);
    expect(d.span.end).toBeLessThanOrEqual(input.length);
  }
}

describe('DKIM key record fuzz', () => {
  it('starts from records that are valid (and one revoked)', () => {
    expect(seeds.map((seed) => validateDkimRecord(seed).parsed?.status)).toEqual([
      'valid',
      'valid',
      'valid',
      'valid',
      'revoked',
    ]);
  });

  it(
    'never throws and always answers in shape on 10,000 random and mutated records',
    { timeout: 60_000 },
    () => {
      const random = generator(463);
      const statuses = new Set<string | undefined>();
      for (let i = 0; i < 10_000; i++) {
        const kind = i % 4;
        const input =
          kind === 0 || kind === 1
            ? mutate(seeds[random(seeds.length)]!, random)
            : kind === 2
              ? randomTagList(random)
              : random(2) === 0
                ? randomText(random)
                : mutate(randomTagList(random), random);
        check(input);
        statuses.add(validateDkimRecord(input).parsed?.status);
      }
      // the inputs reach every outcome, not just the first error
      expect(statuses).toEqual(new Set(['valid', 'invalid', 'revoked', undefined]));
    },
  );
});
