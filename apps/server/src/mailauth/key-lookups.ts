/**
 * DKIM key lookups (`selector._domainkey.domain` TXT) for mailauth, which DKIM message
 * verification and ARC (whose keys are DKIM keys) both hand their DNS to: every query goes
 * through our Resolver, each name once, with a cap on how many names one message may make us
 * look up, and the answers are kept so a result can say what DNS said.
 */
import { looksLikeDkimKeyRecord, type DnsResult, type Resolver } from '@rfckit/standards';

/** RFC 8301 §3.2: verifiers MUST NOT accept RSA keys under 1024 bits. */
export const RSA_MINIMUM_BITS = 1024;

/**
 * Key record findings that make a key unusable as its k= says (RFC 8463 §4.2, RFC 6376 §3.6.1).
 * mailauth's ARC verification reads some such keys anyway (an Ed25519 key in a SubjectPublicKeyInfo
 * wrapper; its strict DKIM mode does not), but verifiers that keep to the RFCs (dkimpy, OpenARC)
 * fail the seal, so it is not a pass here.
 */
export const UNUSABLE_KEY_CODES: ReadonlySet<string> = new Set([
  'DKIM_ED25519_SPKI',
  'DKIM_ED25519_LENGTH',
  'DKIM_KEY_TYPE_MISMATCH',
  'DKIM_KEY_NOT_RSA',
  'DKIM_RSA_KEY_INVALID',
]);

/** mailauth's resolver: node:dns's `resolve(name, type)` shape, TXT as lists of strings. */
export type LibraryResolver = (name: string, type: string) => Promise<string[][]>;

export interface KeyLookups {
  resolve: LibraryResolver;
  /** The answer for a name already looked up (lower case, no trailing dot). */
  answer(name: string): DnsResult<'TXT'> | undefined;
}

/** Error shaped as Node's DNS errors, which is what mailauth maps to its comments. */
function dnsError(result: DnsResult): Error & { code: string } {
  const code =
    result.status === 'nxdomain'
      ? 'ENOTFOUND'
      : result.status === 'nodata'
        ? 'ENODATA'
        : result.status === 'timeout'
          ? 'ETIMEOUT'
          : result.status === 'servfail'
            ? 'ESERVFAIL'
            : 'EREFUSED';
  return Object.assign(new Error(`${result.name} TXT: ${result.status}`), { code });
}

export function keyLookups(resolver: Resolver, maxLookups: number): KeyLookups {
  const answers = new Map<string, DnsResult<'TXT'>>();
  const normalise = (name: string): string => name.toLowerCase().replace(/\.$/, '');
  return {
    // mailauth asks for TXT only; anything else gets no answer rather than another DNS path
    async resolve(name, type) {
      if (type.toUpperCase() !== 'TXT') {
        throw Object.assign(new Error(`${name} ${type}: not looked up`), { code: 'ENOTIMP' });
      }
      const key = normalise(name);
      let answer = answers.get(key);
      if (!answer) {
        if (answers.size >= maxLookups) {
          throw Object.assign(new Error(`more than ${maxLookups} keys to look up`), { code: 'ELIMIT' });
        }
        answer = await resolver.query(key, 'TXT');
        answers.set(key, answer);
      }
      if (answer.status !== 'ok') throw dnsError(answer);
      // mailauth reads only the first TXT record of the set; put the key records first, so that a
      // site-verification string served before the key does not hide it (RFC 6376 §3.6.2.2 lets a
      // verifier choose among the records; the result says there were others)
      const keys = answer.records.filter((entry) => looksLikeDkimKeyRecord(entry.text));
      const others = answer.records.filter((entry) => !keys.includes(entry));
      return [...keys, ...others].map((entry) => entry.strings);
    },
    answer: (name) => answers.get(normalise(name)),
  };
}
