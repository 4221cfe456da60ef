import type { CryptoProvider } from '../core/crypto.ts';
import type { DnsNsec3Record, DnsNsecRecord, DnsRecord, DnsRecordType } from '../core/resolver.ts';
import type { DenialView } from './schema.ts';
import {
  ancestorName,
  compareCanonicalNames,
  isSubdomain,
  labelCount,
  nameToWire,
  normalName,
  presentRecord,
} from './wire.ts';

export type DenialClaim = 'nxdomain' | 'nodata' | 'insecure-delegation' | 'no-closer-match';

export interface DenialResult {
  proven: boolean;
  method: 'NSEC' | 'NSEC3';
  proves: DenialClaim;
  optOut: boolean;
  closestEncloser: string | null;
  message: string;
  /** The NSEC/NSEC3 records the proof rests on. */
  used: DnsRecord[];
}

/** RFC 9276 §3.2: validators may treat NSEC3 with more iterations than this as insecure. */
export const nsec3IterationsCap = 150;

const base32hex = '0123456789abcdefghijklmnopqrstuv';

/** Base32 with the extended hex alphabet, lower case, no padding (RFC 4648 §7, RFC 5155 §3.3). */
export function toBase32hex(bytes: Uint8Array): string {
  let text = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += base32hex[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += base32hex[(buffer << (5 - bits)) & 31];
  return text;
}

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** The NSEC3 hash of a name (RFC 5155 §5): SHA-1 over the canonical name and salt, repeated `iterations` more times. */
export async function nsec3Hash(
  name: string,
  saltHex: string,
  iterations: number,
  crypto: CryptoProvider,
): Promise<string> {
  const salt = hexToBytes(saltHex);
  let value = nameToWire(name);
  for (let i = 0; i <= iterations; i++) {
    const input = new Uint8Array(value.length + salt.length);
    input.set(value, 0);
    input.set(salt, value.length);
    value = await crypto.digest('SHA-1', input);
  }
  return toBase32hex(value);
}

function result(
  method: 'NSEC' | 'NSEC3',
  proves: DenialClaim,
  proven: boolean,
  message: string,
  used: DnsRecord[],
  extra: { optOut?: boolean; closestEncloser?: string | null } = {},
): DenialResult {
  return {
    proven,
    method,
    proves,
    optOut: extra.optOut ?? false,
    closestEncloser: extra.closestEncloser ?? null,
    message,
    used,
  };
}

/** The parent-side NSEC/NSEC3 of a delegation: NS without SOA. It speaks only for the DS of the cut (RFC 6840 §4.1). */
function isDelegation(types: readonly string[]): boolean {
  return types.includes('NS') && !types.includes('SOA');
}

/** The longest name both `a` and `b` lie at or below. */
function commonAncestor(a: string, b: string): string {
  const max = Math.min(labelCount(a), labelCount(b));
  for (let count = max; count > 0; count--) {
    const candidate = ancestorName(a, count);
    if (compareCanonicalNames(candidate, ancestorName(b, count)) === 0) return candidate;
  }
  return '.';
}

/** Whether `name` falls strictly between `owner` and `next` in canonical order, the last NSEC wrapping to the apex. */
function nsecCovers(nsec: DnsNsecRecord, name: string): boolean {
  const afterOwner = compareCanonicalNames(nsec.name, name) < 0;
  const beforeNext = compareCanonicalNames(name, nsec.nextDomain) < 0;
  return compareCanonicalNames(nsec.name, nsec.nextDomain) < 0
    ? afterOwner && beforeNext
    : afterOwner || beforeNext;
}

function show(name: string): string {
  return normalName(name);
}

/** RFC 4035 §5.4 with RFC 6840 §4.1-§4.3. */
function proveWithNsec(
  question: { name: string; type: DnsRecordType },
  proves: DenialClaim,
  records: readonly DnsNsecRecord[],
  options: { zone: string; wildcardOf?: string },
): DenialResult {
  const qname = question.name;
  const fail = (message: string, used: DnsRecord[] = []): DenialResult =>
    result('NSEC', proves, false, message, used);
  const matching = records.find((r) => compareCanonicalNames(r.name, qname) === 0);
  // a parent-side NSEC at a cut, or a DNAME, says nothing about names below it (RFC 6840 §4.1)
  const covering = records.find(
    (r) =>
      nsecCovers(r, qname) &&
      !(
        (isDelegation(r.types) || r.types.includes('DNAME')) &&
        isSubdomain(qname, r.name) &&
        compareCanonicalNames(qname, r.name) !== 0
      ),
  );

  if (proves === 'nodata' || proves === 'insecure-delegation') {
    if (matching) {
      const has = (type: string): boolean => matching.types.includes(type);
      if (proves === 'insecure-delegation') {
        if (has('SOA')) {
          return fail(
            `The NSEC at ${show(qname)} comes from the child zone's apex (it lists SOA): only the parent's NSEC can deny the DS (RFC 6840 §4.2)`,
            [matching],
          );
        }
        if (!has('NS'))
          return fail(
            `The NSEC at ${show(qname)} lists no NS: there is no delegation there (RFC 4035 §5.2)`,
            [matching],
          );
        if (has('DS'))
          return fail(
            `The NSEC at ${show(qname)} lists DS: the delegation is signed, so a DS set must exist (RFC 4035 §5.2)`,
            [matching],
          );
        return result(
          'NSEC',
          proves,
          true,
          `The parent's NSEC at ${show(qname)} lists NS but no DS: an unsigned delegation (RFC 4035 §5.2)`,
          [matching],
        );
      }
      if (has(question.type) || has('CNAME')) {
        return fail(
          `The NSEC at ${show(qname)} lists ${has('CNAME') ? 'CNAME' : question.type}, so it does not deny ${question.type} (RFC 4035 §5.4)`,
          [matching],
        );
      }
      if (isDelegation(matching.types) && question.type !== 'DS') {
        return fail(
          `The NSEC at ${show(qname)} is the parent's at a delegation (NS without SOA): it cannot deny ${question.type} data of the child zone (RFC 6840 §4.1)`,
          [matching],
        );
      }
      return result(
        'NSEC',
        proves,
        true,
        `The NSEC at ${show(qname)} shows the name exists without ${question.type} records (RFC 4035 §5.4)`,
        [matching],
      );
    }
    // an empty non-terminal: the NSEC before it points to a name below it (RFC 4035 §3.1.3.2)
    if (proves === 'nodata' && covering && isSubdomain(covering.nextDomain, qname)) {
      return result(
        'NSEC',
        proves,
        true,
        `${show(qname)} is an empty non-terminal: the NSEC of ${show(covering.name)} skips to ${show(covering.nextDomain)} below it (RFC 4035 §3.1.3.2)`,
        [covering],
      );
    }
    // wildcard NODATA (RFC 4035 §3.1.3.4): the name is covered and the wildcard lacks the type
    if (proves === 'nodata' && covering) {
      const encloser = longestEncloser(covering, qname);
      const wildcard = records.find((r) => compareCanonicalNames(r.name, `*.${encloser}`) === 0);
      if (wildcard && !wildcard.types.includes(question.type) && !wildcard.types.includes('CNAME')) {
        return result(
          'NSEC',
          proves,
          true,
          `${show(qname)} would come from the wildcard *.${show(encloser)}, whose NSEC lists no ${question.type} (RFC 4035 §3.1.3.4)`,
          [covering, wildcard],
          { closestEncloser: show(encloser) },
        );
      }
    }
    return fail(
      `No NSEC record at ${show(qname)} was given, so nothing shows that it has no ${question.type} (RFC 4035 §5.4)`,
    );
  }

  if (matching)
    return fail(`An NSEC exists at ${show(qname)}: the name exists, so it is no name error (RFC 4035 §5.4)`, [
      matching,
    ]);
  if (!covering) {
    return fail(
      `No NSEC record covers ${show(qname)}: nothing proves the name does not exist (RFC 4035 §5.4)`,
    );
  }
  const encloser = longestEncloser(covering, qname);
  if (proves === 'no-closer-match') {
    const expected = options.wildcardOf ?? encloser;
    if (compareCanonicalNames(encloser, expected) !== 0) {
      return fail(
        `The NSEC covering ${show(qname)} shows ${show(encloser)} exists, closer than the wildcard's parent ${show(expected)}: the wildcard must not have been used (RFC 4035 §5.3.4)`,
        [covering],
      );
    }
    return result(
      'NSEC',
      proves,
      true,
      `The NSEC of ${show(covering.name)} shows no name closer to ${show(qname)} than the wildcard *.${show(expected)} (RFC 4035 §5.3.4)`,
      [covering],
      { closestEncloser: show(expected) },
    );
  }
  const wildcardName = `*.${encloser === '.' ? '' : encloser}`.replace(/\.$/, '');
  const wildcardCover = records.find((r) => nsecCovers(r, wildcardName));
  if (!wildcardCover) {
    return fail(
      `An NSEC covers ${show(qname)}, but none shows that the wildcard ${wildcardName} does not exist: it could have answered (RFC 4035 §5.4)`,
      [covering],
    );
  }
  const used = wildcardCover === covering ? [covering] : [covering, wildcardCover];
  return result(
    'NSEC',
    proves,
    true,
    `The NSEC of ${show(covering.name)} covers ${show(qname)} and no wildcard ${wildcardName} exists: the name does not exist (RFC 4035 §5.4)`,
    used,
    { closestEncloser: show(encloser) },
  );
}

/** The closest encloser an NSEC that covers `qname` implies: the deeper common ancestor of `qname` with its owner or next name. */
function longestEncloser(nsec: DnsNsecRecord, qname: string): string {
  const withOwner = commonAncestor(qname, nsec.name);
  const withNext = commonAncestor(qname, nsec.nextDomain);
  return labelCount(withOwner) >= labelCount(withNext) ? withOwner : withNext;
}

interface HashedNsec3 {
  record: DnsNsec3Record;
  owner: string;
}

function nsec3Covers(entry: HashedNsec3, hash: string): boolean {
  const next = entry.record.nextHashedOwner;
  return entry.owner < next ? entry.owner < hash && hash < next : hash > entry.owner || hash < next;
}

/** RFC 5155 §8, with RFC 9276 §3.2 on iterations and RFC 6840 §4.1 on parent-side records. */
async function proveWithNsec3(
  question: { name: string; type: DnsRecordType },
  proves: DenialClaim,
  all: readonly DnsNsec3Record[],
  options: { zone: string; crypto: CryptoProvider; wildcardOf?: string },
): Promise<DenialResult> {
  const qname = question.name;
  const fail = (message: string, used: DnsRecord[] = [], optOut = false): DenialResult =>
    result('NSEC3', proves, false, message, used, { optOut });
  // RFC 5155 §8.2: records of an unknown hash algorithm, or with flags other than Opt-Out, are ignored
  const usable = all.filter((r) => r.hashAlgorithm === 1 && (r.flags & 0xfe) === 0);
  const first = usable[0];
  if (!first) {
    const algorithms = [...new Set(all.map((r) => r.hashAlgorithm))].join(', ');
    return fail(
      `The NSEC3 records use hash algorithm ${algorithms}; only SHA-1 (1) is defined, so they prove nothing and the answer is treated as insecure (RFC 5155 §8.1)`,
      [...all],
    );
  }
  if (first.iterations > nsec3IterationsCap) {
    return fail(
      `The NSEC3 records use ${first.iterations} extra iterations, over the limit of ${nsec3IterationsCap} above which validators treat the answer as insecure (RFC 9276 §3.2); use 0 iterations (RFC 9276 §3.1)`,
      [first],
    );
  }
  const { salt, iterations } = first;
  const entries: HashedNsec3[] = usable
    .filter(
      (r) =>
        r.salt === salt &&
        r.iterations === iterations &&
        labelCount(r.name) === labelCount(options.zone) + 1 &&
        isSubdomain(r.name, options.zone),
    )
    .map((record) => ({ record, owner: record.name.split('.')[0]?.toLowerCase() ?? '' }));
  const hash = (name: string): Promise<string> => nsec3Hash(name, salt, iterations, options.crypto);
  const matchFor = async (name: string): Promise<HashedNsec3 | undefined> => {
    const h = await hash(name);
    return entries.find((e) => e.owner === h);
  };
  const coverFor = async (name: string): Promise<HashedNsec3 | undefined> => {
    const h = await hash(name);
    return entries.find((e) => nsec3Covers(e, h));
  };

  if (proves === 'nodata' || proves === 'insecure-delegation') {
    const matching = await matchFor(qname);
    if (matching) {
      const types = matching.record.types;
      const used = [matching.record];
      if (proves === 'insecure-delegation') {
        if (types.includes('SOA'))
          return fail(
            `The NSEC3 for ${show(qname)} comes from the child zone's apex (it lists SOA): only the parent's can deny the DS (RFC 6840 §4.2)`,
            used,
          );
        if (!types.includes('NS'))
          return fail(
            `The NSEC3 for ${show(qname)} lists no NS: there is no delegation there (RFC 5155 §8.6)`,
            used,
          );
        if (types.includes('DS'))
          return fail(
            `The NSEC3 for ${show(qname)} lists DS: the delegation is signed (RFC 5155 §8.6)`,
            used,
          );
        return result(
          'NSEC3',
          proves,
          true,
          `The parent's NSEC3 for ${show(qname)} lists NS but no DS: an unsigned delegation (RFC 5155 §8.6)`,
          used,
        );
      }
      if (types.includes(question.type) || types.includes('CNAME')) {
        return fail(
          `The NSEC3 for ${show(qname)} lists ${types.includes('CNAME') ? 'CNAME' : question.type}, so it does not deny ${question.type} (RFC 5155 §8.5)`,
          used,
        );
      }
      if (isDelegation(types) && question.type !== 'DS') {
        return fail(
          `The NSEC3 for ${show(qname)} is the parent's at a delegation: it cannot deny ${question.type} data of the child zone (RFC 6840 §4.1)`,
          used,
        );
      }
      return result(
        'NSEC3',
        proves,
        true,
        `The NSEC3 for ${show(qname)} shows the name exists without ${question.type} records (RFC 5155 §8.5)`,
        used,
      );
    }
    const encloser = await closestEncloserProof(qname, options.zone, matchFor, coverFor);
    if (!encloser.ok) return fail(encloser.message, encloser.used);
    const optOut = (encloser.nextCloser.record.flags & 1) === 1;
    if ((proves === 'insecure-delegation' || question.type === 'DS') && optOut) {
      return result(
        'NSEC3',
        proves,
        true,
        `No NSEC3 matches ${show(qname)}, and the Opt-Out NSEC3 covering ${show(encloser.nextCloserName)} allows an unsigned delegation there (RFC 5155 §8.6)`,
        encloser.used,
        { optOut: true, closestEncloser: show(encloser.name) },
      );
    }
    if (proves === 'nodata') {
      const wildcard = await matchFor(`*.${encloser.name}`);
      if (
        wildcard &&
        !wildcard.record.types.includes(question.type) &&
        !wildcard.record.types.includes('CNAME')
      ) {
        return result(
          'NSEC3',
          proves,
          true,
          `${show(qname)} would come from the wildcard *.${show(encloser.name)}, whose NSEC3 lists no ${question.type} (RFC 5155 §8.7)`,
          [...encloser.used, wildcard.record],
          { optOut, closestEncloser: show(encloser.name) },
        );
      }
    }
    return fail(
      proves === 'insecure-delegation'
        ? `No NSEC3 matches ${show(qname)}, and the NSEC3 covering ${show(encloser.nextCloserName)} has no Opt-Out flag: nothing shows an unsigned delegation (RFC 5155 §8.6)`
        : `No NSEC3 matches ${show(qname)} or a wildcard at ${show(encloser.name)}: nothing shows it has no ${question.type} (RFC 5155 §8.5, §8.7)`,
      encloser.used,
      optOut,
    );
  }

  if (await matchFor(qname))
    return fail(`An NSEC3 matches ${show(qname)}: the name exists, so it is no name error (RFC 5155 §8.4)`);
  if (proves === 'no-closer-match') {
    const encloserName = options.wildcardOf ?? options.zone;
    const nextCloserName = ancestorName(qname, labelCount(encloserName) + 1);
    const cover = await coverFor(nextCloserName);
    if (!cover) {
      return fail(
        `No NSEC3 covers ${show(nextCloserName)}: nothing shows the wildcard *.${show(encloserName)} was the closest match (RFC 5155 §8.8)`,
      );
    }
    return result(
      'NSEC3',
      proves,
      true,
      `The NSEC3 covering ${show(nextCloserName)} shows no name closer to ${show(qname)} than the wildcard *.${show(encloserName)} (RFC 5155 §8.8)`,
      [cover.record],
      { optOut: (cover.record.flags & 1) === 1, closestEncloser: show(encloserName) },
    );
  }
  const encloser = await closestEncloserProof(qname, options.zone, matchFor, coverFor);
  if (!encloser.ok) return fail(encloser.message, encloser.used);
  const optOut = (encloser.nextCloser.record.flags & 1) === 1;
  const wildcardCover = await coverFor(`*.${encloser.name}`);
  if (!wildcardCover) {
    return fail(
      `No NSEC3 covers the wildcard *.${show(encloser.name)}: it could have answered for ${show(qname)} (RFC 5155 §8.4)`,
      encloser.used,
      optOut,
    );
  }
  const used = [...encloser.used];
  if (!used.includes(wildcardCover.record)) used.push(wildcardCover.record);
  return result(
    'NSEC3',
    proves,
    true,
    `${show(encloser.name)} is the closest encloser, the next closer name ${show(encloser.nextCloserName)} and the wildcard *.${show(encloser.name)} are covered: ${show(qname)} does not exist (RFC 5155 §8.4)`,
    used,
    { optOut, closestEncloser: show(encloser.name) },
  );
}

type EncloserProof =
  | { ok: true; name: string; nextCloserName: string; nextCloser: HashedNsec3; used: DnsRecord[] }
  | { ok: false; message: string; used: DnsRecord[] };

/** The closest encloser proof (RFC 5155 §8.3): the longest existing ancestor, and the name one label longer covered. */
async function closestEncloserProof(
  qname: string,
  zone: string,
  matchFor: (name: string) => Promise<HashedNsec3 | undefined>,
  coverFor: (name: string) => Promise<HashedNsec3 | undefined>,
): Promise<EncloserProof> {
  const zoneLabels = labelCount(zone);
  for (let count = labelCount(qname) - 1; count >= zoneLabels; count--) {
    const candidate = ancestorName(qname, count);
    const match = await matchFor(candidate);
    if (!match) continue;
    if (count > zoneLabels && (isDelegation(match.record.types) || match.record.types.includes('DNAME'))) {
      return {
        ok: false,
        message: `The closest encloser ${show(candidate)} is a delegation or DNAME: its NSEC3 cannot speak for names below it (RFC 5155 §8.3, RFC 6840 §4.1)`,
        used: [match.record],
      };
    }
    const nextCloserName = ancestorName(qname, count + 1);
    const nextCloser = await coverFor(nextCloserName);
    if (!nextCloser) {
      return {
        ok: false,
        message: `An NSEC3 shows ${show(candidate)} exists, but none covers the next closer name ${show(nextCloserName)} (RFC 5155 §8.3)`,
        used: [match.record],
      };
    }
    const used = nextCloser.record === match.record ? [match.record] : [match.record, nextCloser.record];
    return { ok: true, name: candidate, nextCloserName, nextCloser, used };
  }
  return {
    ok: false,
    message: `No NSEC3 matches an ancestor of ${normalName(qname)} in zone ${normalName(zone)}: there is no closest encloser proof (RFC 5155 §8.3)`,
    used: [],
  };
}

/**
 * Checks a proof of non-existence against the NSEC or NSEC3 records of an answer's authority section:
 * the name does not exist, has no record of the type, is an unsigned delegation (DS query), or a
 * wildcard answer had no closer match. The records' own RRSIGs are the caller's to check.
 */
export async function proveDenial(
  question: { name: string; type: DnsRecordType },
  proves: DenialClaim,
  records: readonly DnsRecord[],
  options: { zone: string; crypto: CryptoProvider; wildcardOf?: string },
): Promise<DenialResult> {
  const nsec3 = records.filter((r): r is DnsNsec3Record => r.type === 'NSEC3');
  const nsec = records.filter(
    (r): r is DnsNsecRecord => r.type === 'NSEC' && isSubdomain(r.name, options.zone),
  );
  const name = normalName(question.name);
  if (nsec3.length > 0) return proveWithNsec3({ ...question, name }, proves, nsec3, options);
  if (nsec.length > 0) return proveWithNsec({ ...question, name }, proves, nsec, options);
  return result(
    'NSEC',
    proves,
    false,
    `The answer carries no NSEC or NSEC3 record from zone ${normalName(options.zone)}, so nothing proves the denial (RFC 4035 §3.1.3)`,
    [],
  );
}

/** The schema view of a denial proof. */
export function denialView(denial: DenialResult): DenialView {
  const nsec3 = denial.used.find((r): r is DnsNsec3Record => r.type === 'NSEC3');
  return {
    method: denial.method,
    proves: denial.proves,
    proven: denial.proven,
    optOut: denial.optOut,
    closestEncloser: denial.closestEncloser,
    iterations: nsec3 ? nsec3.iterations : null,
    salt: nsec3 ? nsec3.salt : null,
    message: denial.message,
    records: denial.used.map(presentRecord),
  };
}
