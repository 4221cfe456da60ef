/**
 * ARC chain validation (RFC 8617 §5.2). Our parser (@rfckit/standards) decides what can be decided
 * without keys — steps 1 to 3: the number of sets, the newest cv=, the set structure, the cv=
 * sequence and the tag syntax — and mailauth does the canonicalization and crypto of step 4 (the
 * newest ARC-Message-Signature) and step 6 (every ARC-Seal). Keys are fetched only through the
 * Resolver we are given, and RFC 8301 is applied on top of the library: rsa-sha1 is refused by
 * the parser and RSA keys under 1024 bits fail.
 */
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  dkimKeyNotCheckedReason,
  arcTag,
  compactTagValue,
  parseArcHeaders,
  parseDkimRecord,
  toValidationResult,
  validateDkimRecord,
  type ArcSetParsed,
  type ArcSetResult,
  type ArcSignatureResult,
  type ArcValidateResult,
  type Diagnostic,
  type DnsResult,
  type Resolver,
} from '@rfckit/standards';
import { dkimVerify, verifyASChain } from 'mailauth';
import { keyLookups, RSA_MINIMUM_BITS, UNUSABLE_KEY_CODES } from '../../mailauth/key-lookups.ts';
import { isResolverFailure } from '../../net/dns.ts';

/** The most key names one message may make us look up; each is a DNS query. */
const MAX_KEY_LOOKUPS = 64;
/** Older AMSs verified for oldest-pass (each is one more pass over the message). */
const MAX_OLDER_AMS = 16;

// mailauth's body canonicalizer has no type declarations; this is the part we use
const require = createRequire(import.meta.url);
const { dkimBody } = require('mailauth/lib/dkim/body/index.js') as {
  dkimBody: (
    canonicalization: string,
    hashAlgo: string,
    maxBodyLength: number | false,
  ) => { update: (chunk: Buffer) => void; digest: (encoding: 'base64') => string };
};

export interface ValidateArcOptions {
  resolver: Resolver;
  /** Verification time (default: now). */
  now?: Date | undefined;
}

type LibraryVerify = Awaited<ReturnType<typeof dkimVerify>>;
interface LibraryArcData {
  chain?: unknown[] | false;
  lastEntry?: { i: number; messageSignature?: LibraryAms };
  error?: Error;
}
interface LibraryAms {
  status?: { result?: string; comment?: string | false };
  signingDomain?: string;
  selector?: string;
  algo?: string;
  format?: string;
  bodyHash?: string;
  bodyHashExpecting?: string;
  signature?: string;
  signingHeaders?: { keys?: string; canonicalizedHeader?: string };
}

interface SignatureVerdict {
  result: ArcSignatureResult;
  reason: string | null;
}

function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

/** The message as mailauth reads it: CRLF line endings, without the blank lines a paste starts with. */
function toMessage(record: string): string {
  return record.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\r?\n/g, '\r\n');
}

function keyName(selector: string | null, domain: string | null): string | null {
  return selector && domain ? `${selector}._domainkey.${domain}`.toLowerCase() : null;
}

/** Why a key lookup failed: ours (no verdict, we could not check) or the name's servers (temperror). */
function keyLookupFailure(lookup: DnsResult | undefined, code: string | null | undefined): string {
  return lookup && isResolverFailure(lookup)
    ? dkimKeyNotCheckedReason
    : `key lookup failed: ${lookup?.status ?? code}`;
}

/** What a seal error of mailauth means, in words. */
function sealVerdict(
  error: { code?: string; message?: string },
  lookup: DnsResult | undefined,
): SignatureVerdict {
  switch (error.code) {
    case 'failing_arc_seal':
      return { result: 'fail', reason: 'seal signature did not verify' };
    case 'invalid_arc_seal':
      return { result: 'permerror', reason: `seal could not be verified: ${error.message ?? ''}`.trim() };
    case 'ENOTFOUND':
      return { result: 'permerror', reason: 'no key for the seal (NXDOMAIN)' };
    case 'ENODATA':
      return { result: 'permerror', reason: 'no key for the seal (no TXT record)' };
    case 'ETIMEOUT':
    case 'ESERVFAIL':
    case 'EREFUSED':
      return { result: 'temperror', reason: keyLookupFailure(lookup, error.code) };
    case 'ELIMIT':
      return {
        result: 'temperror',
        reason: `not looked up: more than ${MAX_KEY_LOOKUPS} keys in one message`,
      };
    case 'EINVALIDKEYALGO':
      return { result: 'permerror', reason: 'the key type does not match the seal algorithm' };
    case 'EINVALIDVER':
    case 'EINVALIDTYPE':
    case 'EINVALIDVAL':
    case 'EINVALIDHASH':
    case 'EINVALIDSERVICE':
      return { result: 'permerror', reason: `the key record is not usable (${error.message ?? error.code})` };
    default:
      return { result: 'permerror', reason: `seal could not be verified: ${error.message ?? String(error)}` };
  }
}

/** What mailauth's answer on an ARC-Message-Signature means. */
function amsVerdict(entry: LibraryAms | undefined, lookup: DnsResult | undefined): SignatureVerdict {
  const result = entry?.status?.result;
  const comment = typeof entry?.status?.comment === 'string' ? entry.status.comment : null;
  if (!entry || !result) return { result: 'permerror', reason: 'the signature could not be read' };
  if (result === 'pass') return { result: 'pass', reason: null };
  if (comment === 'body hash did not verify') return { result: 'fail', reason: 'body hash did not verify' };
  if (result === 'fail') {
    return {
      result: 'fail',
      reason: comment === 'bad signature' || !comment ? 'signature did not verify' : comment,
    };
  }
  if (result === 'temperror') return { result: 'temperror', reason: keyLookupFailure(lookup, comment) };
  if (comment === 'no key') {
    const why =
      lookup?.status === 'nxdomain' ? ' (NXDOMAIN)' : lookup?.status === 'nodata' ? ' (no TXT record)' : '';
    return { result: 'permerror', reason: `no key for the signature${why}` };
  }
  return {
    result: result === 'neutral' ? 'neutral' : 'permerror',
    reason: comment ?? 'signature could not be verified',
  };
}

/** A public key from a DKIM key record (RFC 6376 §3.6.1, RFC 8463 §4.2). */
function publicKeyOf(record: string): KeyObject | null {
  const tags = parseDkimRecord(record).tags;
  const p = compactTagValue(tags?.find((tag) => tag.name === 'p')?.value);
  const k = tags?.find((tag) => tag.name === 'k')?.value.toLowerCase() ?? 'rsa';
  if (!p) return null;
  const bytes = Buffer.from(p, 'base64');
  try {
    if (k === 'ed25519') {
      const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), bytes]);
      return createPublicKey({ key: spki, format: 'der', type: 'spki' });
    }
    try {
      return createPublicKey({ key: bytes, format: 'der', type: 'spki' });
    } catch {
      return createPublicKey({ key: bytes, format: 'der', type: 'pkcs1' });
    }
  } catch {
    return null;
  }
}

/**
 * Validates the ARC chain of `record` (ARC header fields or a whole message) for `domain`. Never
 * throws for anything in the input: what cannot be verified is a result with its reason.
 */
export async function validateArc(
  record: string,
  domain: string,
  options: ValidateArcOptions,
): Promise<ArcValidateResult> {
  const now = options.now ?? new Date();
  const wanted = normaliseDomain(domain);
  const parsed = parseArcHeaders(record);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const lookups = keyLookups(options.resolver, MAX_KEY_LOOKUPS);
  const resolver = lookups.resolve;

  /** Type and size of the key at a name, when it was looked up. */
  const keyOf = (
    name: string | null,
  ): { type: string | null; bits: number | null; record: string | null; unusable: Diagnostic | null } => {
    const lookup = name ? lookups.answer(name) : undefined;
    if (!lookup || lookup.status !== 'ok') return { type: null, bits: null, record: null, unusable: null };
    const texts = lookup.records.map((entry) => entry.text);
    const text =
      texts.find((t) => /^\s*v\s*=\s*DKIM1\b/i.test(t) || /(^|;)\s*[kp]\s*=/.test(t)) ?? texts[0] ?? null;
    const validation = text === null ? null : validateDkimRecord(text);
    return {
      type: validation?.parsed?.keyType ?? null,
      bits: validation?.parsed?.keySize ?? null,
      record: text,
      unusable:
        validation?.diagnostics.find((d) => d.severity === 'error' && UNUSABLE_KEY_CODES.has(d.code)) ?? null,
    };
  };

  /** A pass on a key our parser cannot read: permerror, with the key record's finding. */
  const unusableKey = (
    verdict: { result: ArcSignatureResult; reason: string | null },
    key: { unusable: Diagnostic | null },
    what: string,
    instance: number,
    dnsName: string | null,
  ) => {
    if (verdict.result !== 'pass' || !key.unusable) return;
    verdict.result = 'permerror';
    verdict.reason = `the key record is not usable: ${key.unusable.message} (${key.unusable.rfc ?? 'RFC 6376 §3.6.1'})`;
    diagnostics.push({
      severity: 'error',
      code: 'ARC_KEY_UNUSABLE',
      message: `The key of the ${what} of i=${instance} (${dnsName ?? 'unknown name'}) is not usable: ${key.unusable.message}`,
      requirement: 'MUST',
      ...(key.unusable.rfc ? { rfc: key.unusable.rfc } : {}),
      ...(key.unusable.fix ? { fix: key.unusable.fix } : {}),
    });
  };

  const sets: ArcSetResult[] = parsed.sets.map((set) => baseSet(set, wanted));
  const seals = new Map<number, SignatureVerdict>();
  const messageSignatures = new Map<number, { verdict: SignatureVerdict; entry: LibraryAms | undefined }>();
  const newest = parsed.sets.at(-1)?.instance ?? 0;

  let chain: ArcValidateResult['chain'];
  if (parsed.fields.length === 0) {
    chain = { result: 'none', reason: null, instances: 0, failedInstance: null, oldestPass: null };
  } else if (parsed.structure) {
    chain = {
      result: 'fail',
      reason: parsed.structure.reason,
      instances: parsed.sets.length,
      failedInstance: parsed.structure.instance,
      oldestPass: null,
    };
    for (const set of sets) {
      set.seal.reason = set.messageSignature.reason = 'not verified: the chain fails its structure check';
    }
  } else {
    const message = toMessage(record);
    const run = async (text: string): Promise<LibraryArcData | null> => {
      let verified: LibraryVerify;
      try {
        verified = await dkimVerify(Buffer.from(text, 'utf8'), { resolver, curTime: now, minBitLength: 1 });
      } catch {
        return null;
      }
      return ((verified as unknown as { arc?: LibraryArcData }).arc ?? null) as LibraryArcData | null;
    };

    const data = await run(message);
    const libraryChain = data && Array.isArray(data.chain) ? data.chain : null;
    if (!data || data.error || !libraryChain || libraryChain.length !== parsed.sets.length) {
      const why = data?.error?.message ?? 'the verifier could not read the ARC sets';
      chain = {
        result: 'fail',
        reason: `the ARC sets could not be verified: ${why}`,
        instances: parsed.sets.length,
        failedInstance: null,
        oldestPass: null,
      };
    } else {
      // step 4: the newest AMS (mailauth verified it as part of the DKIM pass)
      const newestEntry = data.lastEntry?.messageSignature;
      messageSignatures.set(newest, await judgeAms(newestEntry, parsed.sets.at(-1)!, message));

      // step 5 (oldest-pass): each older AMS, verified on the message as it was when sealed
      const reparsed = parseArcHeaders(message);
      for (let k = newest - 1; k >= 1 && newest - k <= MAX_OLDER_AMS; k--) {
        // one pass that keeps everything between the later ARC fields (a message may be 1 MiB)
        const later = reparsed.fields
          .filter((field) => field.instance !== null && field.instance > k)
          .sort((x, y) => x.span.start - y.span.start);
        const kept: string[] = [];
        let from = 0;
        for (const field of later) {
          kept.push(message.slice(from, field.span.start));
          from = field.span.end;
        }
        kept.push(message.slice(from));
        const text = kept.join('');
        const older = await run(text);
        const set = parsed.sets.find((s) => s.instance === k)!;
        messageSignatures.set(k, await judgeAms(older?.lastEntry?.messageSignature, set, text));
      }

      // step 6: every seal, newest first; one library call verifies a slice from its newest seal down
      const sealName = (instance: number) => {
        const set = parsed.sets.find((s) => s.instance === instance);
        return keyName(arcTag(set?.seal, 's') ?? null, arcTag(set?.seal, 'd') ?? null);
      };
      let top = newest;
      while (top >= 1) {
        try {
          await verifyASChain({ chain: libraryChain.slice(0, top) } as never, { resolver, minBitLength: 1 });
          for (let i = 1; i <= top; i++) seals.set(i, { result: 'pass', reason: null });
          break;
        } catch (error) {
          const failure = error as { code?: string; message?: string; queryDomain?: string };
          let at = top;
          const named = /^i=(\d+)\b/.exec(failure.message ?? '');
          if (named) at = Math.min(top, Number(named[1]));
          else if (failure.queryDomain) {
            const name = failure.queryDomain.toLowerCase();
            for (let i = top; i >= 1; i--) {
              if (sealName(i) === name) {
                at = i;
                break;
              }
            }
          }
          for (let i = at + 1; i <= top; i++) seals.set(i, { result: 'pass', reason: null });
          seals.set(at, sealVerdict(failure, lookups.answer(sealName(at) ?? '')));
          top = at - 1;
        }
      }

      chain = {
        result: 'pass',
        reason: null,
        instances: parsed.sets.length,
        failedInstance: null,
        oldestPass: null,
      };
    }
  }

  /** Applies the verdicts and RFC 8301 to the per-set results. */
  for (const set of sets) {
    const parsedSet = parsed.sets.find((s) => s.instance === set.instance)!;
    const sealKey = keyOf(set.seal.dnsName);
    set.seal.keyBits = sealKey.bits;
    const seal = seals.get(set.instance);
    if (seal) {
      set.seal.result = seal.result;
      set.seal.reason = seal.reason;
      if (
        seal.result === 'pass' &&
        sealKey.type === 'rsa' &&
        sealKey.bits !== null &&
        sealKey.bits < RSA_MINIMUM_BITS
      ) {
        set.seal.result = 'fail';
        set.seal.reason = `RSA key of ${sealKey.bits} bits is under the 1024-bit minimum (RFC 8301 §3.2)`;
      }
      unusableKey(set.seal, sealKey, 'ARC-Seal', set.instance, set.seal.dnsName);
    }
    const ams = messageSignatures.get(set.instance);
    const amsKey = keyOf(set.messageSignature.dnsName);
    set.messageSignature.keyBits = amsKey.bits;
    if (ams) {
      set.messageSignature.result = ams.verdict.result;
      set.messageSignature.reason = ams.verdict.reason;
      const expected =
        ams.entry?.bodyHashExpecting ?? compactTagValue(arcTag(parsedSet.messageSignature, 'bh'));
      const computed = ams.entry?.bodyHash;
      set.messageSignature.bodyHashMatches = expected && computed ? expected === computed : null;
      if (ams.entry?.format) set.messageSignature.canonicalization = ams.entry.format;
      if (
        ams.verdict.result === 'pass' &&
        amsKey.type === 'rsa' &&
        amsKey.bits !== null &&
        amsKey.bits < RSA_MINIMUM_BITS
      ) {
        set.messageSignature.result = 'fail';
        set.messageSignature.reason = `RSA key of ${amsKey.bits} bits is under the 1024-bit minimum (RFC 8301 §3.2)`;
      }
      unusableKey(
        set.messageSignature,
        amsKey,
        'ARC-Message-Signature',
        set.instance,
        set.messageSignature.dnsName,
      );
    }
  }

  if (chain.result === 'pass') {
    const newestSet = sets.at(-1)!;
    const brokenSeal = [...sets].reverse().find((set) => set.seal.result !== 'pass');
    if (newestSet.messageSignature.result !== 'pass') {
      chain = {
        ...chain,
        result: 'fail',
        reason: `the newest ARC-Message-Signature (i=${newest}) did not validate: ${newestSet.messageSignature.reason ?? newestSet.messageSignature.result}`,
        failedInstance: newest,
      };
      diagnostics.push({
        severity: 'error',
        code: 'ARC_AMS_FAILED',
        message: `The ARC-Message-Signature of i=${newest} did not validate: ${newestSet.messageSignature.reason ?? newestSet.messageSignature.result}`,
        requirement: 'MUST',
        rfc: 'RFC 8617 §5.2 step 4',
        fix: 'The message changed after the last sealer signed it, or its key is wrong: compare the message with what the sealer sent and the key in DNS.',
      });
    } else if (brokenSeal) {
      chain = {
        ...chain,
        result: 'fail',
        reason: `the ARC-Seal of i=${brokenSeal.instance} did not validate: ${brokenSeal.seal.reason ?? brokenSeal.seal.result}`,
        failedInstance: brokenSeal.instance,
      };
      diagnostics.push({
        severity: 'error',
        code: 'ARC_SEAL_FAILED',
        message: `The ARC-Seal of i=${brokenSeal.instance} did not validate: ${brokenSeal.seal.reason ?? brokenSeal.seal.result}`,
        requirement: 'MUST',
        rfc: 'RFC 8617 §5.2 step 6',
        fix: 'An ARC header field was changed after sealing, or the seal key in DNS does not match: check the sealer of that hop.',
      });
    } else {
      // step 5: the lowest instance whose AMS still validates, counting down from N-1
      const older = sets.slice(0, -1).reverse();
      if (older.every((set) => messageSignatures.has(set.instance))) {
        const firstBroken = older.find((set) => set.messageSignature.result !== 'pass');
        chain = { ...chain, oldestPass: firstBroken ? firstBroken.instance + 1 : 0 };
      }
    }
    for (const set of sets.slice(0, -1)) {
      if (messageSignatures.has(set.instance) && set.messageSignature.result !== 'pass') {
        diagnostics.push({
          severity: 'info',
          code: 'ARC_OLDER_AMS_FAILED',
          message: `The ARC-Message-Signature of i=${set.instance} no longer validates (${set.messageSignature.reason}); only the newest AMS counts for the chain`,
          rfc: 'RFC 8617 §5.2 step 5',
        });
      }
    }
  }

  for (const set of sets) {
    for (const [what, verdict] of [
      ['ARC-Seal', set.seal],
      ['ARC-Message-Signature', set.messageSignature],
    ] as const) {
      if (verdict.reason?.includes('RFC 8301 §3.2')) {
        diagnostics.push({
          severity: 'error',
          code: 'ARC_RSA_SHORT_KEY',
          message: `The ${what} of i=${set.instance} uses an RSA key of ${verdict.keyBits} bits; verifiers MUST NOT accept keys under 1024 bits`,
          requirement: 'MUST NOT',
          rfc: 'RFC 8301 §3.2',
          fix: 'Publish an RSA key of 2048 bits (or Ed25519) and seal with it.',
        });
      }
    }
  }

  // RFC 6376 §3.5: a verifier MAY fail a signature dated in the future (dkimpy does); not a chain
  // failure here, but worth knowing. Five minutes allow for clock skew between hosts.
  for (const set of parsed.sets) {
    for (const [what, field] of [
      ['ARC-Seal', set.seal],
      ['ARC-Message-Signature', set.messageSignature],
    ] as const) {
      const t = arcTag(field, 't');
      if (t === undefined || !/^[0-9]{1,12}$/.test(t)) continue;
      if (Number(t) > now.getTime() / 1000 + 300) {
        diagnostics.push({
          severity: 'warning',
          code: 'ARC_TIMESTAMP_FUTURE',
          message: `The ${what} of i=${set.instance} is dated t=${t} (${new Date(Number(t) * 1000).toISOString()}), in the future: some validators fail it`,
          requirement: 'MAY',
          rfc: 'RFC 6376 §3.5',
          fix: "Check the sealer's clock: t= is the time of sealing in seconds since 1970 (UTC).",
        });
      }
    }
  }

  if (sets.length > 0 && !sets.some((set) => set.withinDomain)) {
    diagnostics.push({
      severity: 'info',
      code: 'ARC_DOMAIN_NOT_IN_CHAIN',
      message: `No ARC-Seal of the chain is signed by ${wanted} or a subdomain of it`,
      fix: 'Check the domain: it is compared with the d= of every ARC-Seal.',
    });
  }

  const { errors, warnings } = toValidationResult(diagnostics);
  return {
    valid: chain.result === 'pass',
    errors,
    warnings,
    diagnostics,
    domain: wanted,
    chain,
    sets,
  };

  /** The verdict on one AMS, with our own check where mailauth applies DKIM's From rule to ARC. */
  async function judgeAms(
    entry: LibraryAms | undefined,
    set: ArcSetParsed,
    text: string,
  ): Promise<{ verdict: SignatureVerdict; entry: LibraryAms | undefined }> {
    const name = keyName(
      arcTag(set.messageSignature, 's') ?? null,
      arcTag(set.messageSignature, 'd') ?? null,
    );
    if (entry?.status?.comment === 'From field not signed') {
      // mailauth ignores a signature whose h= lacks From (RFC 6376 §6.1.1). RFC 8617 does not make
      // From coverage a validity rule of the AMS and the ARC suite passes such chains: verify the
      // signature itself over the header data mailauth canonicalized, with a body hash of our own
      const own = await verifyIgnoringFrom(entry, set, text, name);
      const { bodyHash: _library, ...rest } = entry;
      return {
        verdict: own.verdict,
        entry: own.bodyHash === null ? rest : { ...rest, bodyHash: own.bodyHash },
      };
    }
    if (name && entry && !lookups.answer(name)) await resolver(name, 'TXT').catch(() => undefined);
    return { verdict: amsVerdict(entry, name ? lookups.answer(name) : undefined), entry };
  }

  async function verifyIgnoringFrom(
    entry: LibraryAms,
    set: ArcSetParsed,
    text: string,
    name: string | null,
  ): Promise<{ verdict: SignatureVerdict; bodyHash: string | null }> {
    const headerData = entry.signingHeaders?.canonicalizedHeader;
    const algorithm = (arcTag(set.messageSignature, 'a') ?? '').toLowerCase();
    if (!headerData || !name)
      return { verdict: { result: 'permerror', reason: 'signature could not be read' }, bodyHash: null };
    const canonicalization = entry.format ?? arcTag(set.messageSignature, 'c') ?? 'simple/simple';
    const length = arcTag(set.messageSignature, 'l');
    const separator = text.indexOf('\r\n\r\n');
    const body = separator < 0 ? Buffer.alloc(0) : Buffer.from(text.slice(separator + 4), 'utf8');
    let bodyHash: string;
    try {
      const hasher = dkimBody(canonicalization, 'sha256', length ? Number(length) : false);
      hasher.update(body);
      bodyHash = hasher.digest('base64');
    } catch {
      return { verdict: { result: 'permerror', reason: 'unknown body canonicalization' }, bodyHash: null };
    }
    if (bodyHash !== compactTagValue(arcTag(set.messageSignature, 'bh'))) {
      return { verdict: { result: 'fail', reason: 'body hash did not verify' }, bodyHash };
    }
    try {
      await resolver(name, 'TXT');
    } catch {
      return {
        verdict: amsVerdict({ status: { result: 'neutral', comment: 'no key' } }, lookups.answer(name)),
        bodyHash,
      };
    }
    const key = keyOf(name);
    const publicKey = key.record ? publicKeyOf(key.record) : null;
    if (!publicKey)
      return { verdict: { result: 'permerror', reason: 'the key record is not usable' }, bodyHash };
    const data = Buffer.from(headerData, 'base64');
    const signature = Buffer.from(compactTagValue(arcTag(set.messageSignature, 'b')) ?? '', 'base64');
    let ok: boolean;
    try {
      ok =
        algorithm === 'ed25519-sha256'
          ? cryptoVerify(null, createHash('sha256').update(data).digest(), publicKey, signature)
          : cryptoVerify('sha256', data, publicKey, signature);
    } catch {
      ok = false;
    }
    return {
      verdict: ok ? { result: 'pass', reason: null } : { result: 'fail', reason: 'signature did not verify' },
      bodyHash,
    };
  }
}

/** The per-set result before any verification: what the fields say. */
function baseSet(set: ArcSetParsed, wanted: string): ArcSetResult {
  const d = arcTag(set.seal, 'd') ?? null;
  const s = arcTag(set.seal, 's') ?? null;
  const amsD = arcTag(set.messageSignature, 'd') ?? null;
  const amsS = arcTag(set.messageSignature, 's') ?? null;
  const t = arcTag(set.seal, 't');
  const sealDomain = d?.toLowerCase() ?? null;
  return {
    instance: set.instance,
    domain: d,
    selector: s,
    algorithm: arcTag(set.seal, 'a') ?? null,
    cv: arcTag(set.seal, 'cv')?.toLowerCase() ?? null,
    withinDomain: sealDomain !== null && (sealDomain === wanted || sealDomain.endsWith(`.${wanted}`)),
    seal: { result: 'none', reason: null, keyBits: null, dnsName: keyName(s, d) },
    messageSignature: {
      result: 'none',
      reason: null,
      domain: amsD,
      selector: amsS,
      algorithm: arcTag(set.messageSignature, 'a') ?? null,
      canonicalization: arcTag(set.messageSignature, 'c') ?? null,
      signedHeaders: (compactTagValue(arcTag(set.messageSignature, 'h')) ?? '')
        .split(':')
        .filter((name) => name !== '')
        .map((name) => name.toLowerCase()),
      bodyHashMatches: null,
      keyBits: null,
      dnsName: keyName(amsS, amsD),
    },
    authenticationResults: set.authenticationResults
      ? { authservId: set.authenticationResults.authservId, results: set.authenticationResults.results }
      : null,
    timestamp: t !== undefined && /^[0-9]{1,12}$/.test(t) ? Number(t) : null,
  };
}
