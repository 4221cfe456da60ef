/**
 * Random and mutated SPF records for fuzzing the parser and the evaluator (tests only; not part
 * of the public surface). Deterministic for a seed, so a failure can be replayed.
 */
import type { FixtureZones } from '../core/fixture-resolver.ts';
import type { Rng } from '../core/seeded-random.ts';

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function int(rng: Rng, max: number): number {
  return Math.floor(rng() * (max + 1));
}

/** Names the fuzz zones define, so that generated terms reach records, addresses and failures. */
export const FUZZ_NAMES = [
  'example.com',
  'inc1.example.com',
  'inc2.example.com',
  'mx.example.com',
  'host.example.com',
  'slow.example.com',
  'broken.example.com',
  'loop.example.com',
  'missing.example.com',
] as const;

const MACROS = [
  '%{s}',
  '%{l}',
  '%{o}',
  '%{d}',
  '%{i}',
  '%{ir}',
  '%{v}',
  '%{h}',
  '%{d2}',
  '%{l1r-}',
  '%{ir}.%{v}',
  '%{p}',
  '%{S}',
  '%%',
  '%_',
  '%-',
];
const QUALIFIERS = ['', '', '+', '-', '~', '?'];

function domainSpec(rng: Rng): string {
  const r = rng();
  if (r < 0.6) return pick(rng, FUZZ_NAMES);
  if (r < 0.85) return `${pick(rng, MACROS)}.${pick(rng, FUZZ_NAMES)}`;
  return `${pick(rng, MACROS)}${pick(rng, MACROS)}`;
}

function ip4(rng: Rng): string {
  return `${int(rng, 255)}.${int(rng, 255)}.${int(rng, 255)}.${int(rng, 255)}`;
}

function ip6(rng: Rng): string {
  const groups = Array.from({ length: 8 }, () => int(rng, 0xffff).toString(16));
  if (rng() < 0.5) return groups.join(':');
  const cut = int(rng, 6);
  return `${groups.slice(0, cut).join(':')}::${groups.slice(cut + 2).join(':')}`;
}

function term(rng: Rng): string {
  const q = pick(rng, QUALIFIERS);
  switch (int(rng, 11)) {
    case 0:
      return `${q}all`;
    case 1:
      return `${q}include:${domainSpec(rng)}`;
    case 2:
      return `${q}a${rng() < 0.5 ? `:${domainSpec(rng)}` : ''}${rng() < 0.3 ? `/${int(rng, 32)}` : ''}${rng() < 0.2 ? `//${int(rng, 128)}` : ''}`;
    case 3:
      return `${q}mx${rng() < 0.5 ? `:${domainSpec(rng)}` : ''}${rng() < 0.3 ? `/${int(rng, 32)}` : ''}`;
    case 4:
      return `${q}ptr${rng() < 0.5 ? `:${domainSpec(rng)}` : ''}`;
    case 5:
      return `${q}ip4:${ip4(rng)}${rng() < 0.6 ? `/${int(rng, 32)}` : ''}`;
    case 6:
      return `${q}ip6:${ip6(rng)}${rng() < 0.6 ? `/${int(rng, 128)}` : ''}`;
    case 7:
      return `${q}exists:${domainSpec(rng)}`;
    case 8:
      return `redirect=${domainSpec(rng)}`;
    case 9:
      return `exp=${domainSpec(rng)}`;
    case 10:
      return `${pick(rng, ['x-unknown', 'default', 'foo.bar', 'v'])}=${pick(rng, ['', 'value', '%{d}', 'a:b/c'])}`;
    default:
      // mostly valid records reach the evaluator's deeper paths; some carry a broken term
      return rng() < 0.3
        ? pick(rng, ['moo', '-all.', 'ip4:1.2.3', 'a:', 'include', 'ptr/0', '1up=x', '=x', '%{x}'])
        : `${q}a:host.example.com`;
  }
}

/** A record built from random terms: mostly valid, sometimes not. */
export function generateSpfRecord(rng: Rng): string {
  const terms = Array.from({ length: int(rng, 12) }, () => term(rng));
  const version = rng() < 0.95 ? 'v=spf1' : pick(rng, ['V=SPF1', 'v=spf10', 'v=spf2.0/pra', 'spf1', '']);
  return [version, ...terms].join(rng() < 0.9 ? ' ' : '  ');
}

const NOISE = [
  ' ',
  '  ',
  ':',
  '/',
  '//',
  '=',
  '%',
  '%{',
  '}',
  '.',
  '..',
  '-',
  '+',
  '~',
  '?',
  '\t',
  '\r\n',
  '\0',
  '\u00e9',
  '\u{1F600}',
  '0',
  '999',
  'all',
  'v=spf1 ',
];

/** Changes a record a little: a character dropped, doubled or replaced, noise inserted, terms swapped. */
export function mutateSpfRecord(rng: Rng, record: string): string {
  let text = record;
  const edits = 1 + int(rng, 3);
  for (let n = 0; n < edits; n++) {
    const at = int(rng, text.length);
    switch (int(rng, 6)) {
      case 0:
        text = text.slice(0, at) + text.slice(at + 1);
        break;
      case 1:
        text = text.slice(0, at) + (text[at] ?? '') + text.slice(at);
        break;
      case 2:
        text = text.slice(0, at) + pick(rng, NOISE) + text.slice(at + 1);
        break;
      case 3:
        text = text.slice(0, at) + pick(rng, NOISE) + text.slice(at);
        break;
      case 4: {
        const parts = text.split(' ');
        const i = int(rng, parts.length - 1);
        const j = int(rng, parts.length - 1);
        [parts[i], parts[j]] = [parts[j] ?? '', parts[i] ?? ''];
        text = parts.join(' ');
        break;
      }
      default:
        text = text.slice(0, at) + term(rng) + ' ' + text.slice(at);
    }
  }
  return text;
}

/**
 * Zones for one fuzz case: `record` at example.com, other fuzz records at the include targets,
 * addresses, an MX, a PTR for 192.0.2.10, a name that times out, one that fails and a loop.
 */
export function fuzzZones(record: string, others: readonly string[]): FixtureZones {
  return {
    'example.com': { TXT: [record], A: '192.0.2.10', MX: { preference: 10, exchange: 'mx.example.com' } },
    'inc1.example.com': { TXT: [others[0] ?? 'v=spf1 -all'] },
    'inc2.example.com': { TXT: [others[1] ?? 'v=spf1 ?all', 'unrelated text'] },
    'loop.example.com': { TXT: ['v=spf1 include:loop.example.com -all'] },
    'mx.example.com': { A: ['192.0.2.25', '198.51.100.25'], AAAA: '2001:db8::25' },
    'host.example.com': { A: '192.0.2.10', AAAA: '2001:db8::10' },
    'slow.example.com': { timeout: true },
    'broken.example.com': { servfail: true },
    '10.2.0.192.in-addr.arpa': { PTR: ['host.example.com', 'mx.example.com'] },
    '*.example.com': { A: '127.0.0.2' },
  };
}
