/**
 * The ARC header fields a set of generator settings produces (RFC 8617 §4.1), written in the
 * signing suite's standardized format: tags in alphabetical order, lower-case names and values
 * (except b= and bh=), exactly one space after each ';' and no trailing ';'. The server's sealer
 * writes its fields with the same functions, so the preview and a sealed message agree.
 */
import {
  ARC_DEFAULTS,
  arcSettingsRequiredMessage,
  normaliseArcHeaders,
  type ArcAlgorithm,
  type ArcCanonicalization,
  type ArcChainValue,
} from './settings.ts';

export type ArcTag = readonly [name: string, value: string];

/** Folded lines stay within 78 characters where a tag allows it (RFC 5322 §2.1.1). */
const LINE_LENGTH = 78;

/** The tags as one unfolded line: `a=…; b=…; …`. */
export function formatArcTags(tags: readonly ArcTag[]): string {
  return tags.map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * `Name: tags`, folded with CRLF and one space only after a ';', so that unfolding gives the
 * standardized one-line form. b= is never folded inside: relaxed canonicalization keeps a fold's
 * space, and the next ARC-Seal signs this field relaxed, so a fold inside b= would change what
 * the suite's seals sign (a 4096-bit signature still fits the 998-character line limit). b= has a
 * line of its own, so every other fold falls in the same place whatever the signature: the field
 * with b= empty (what its own signature covers, RFC 6376 §3.7) folds exactly as the signed one,
 * which simple header canonicalization needs.
 */
export function foldArcField(name: string, tags: readonly ArcTag[]): string {
  const lines: string[] = [];
  let current = `${name}:`;
  let fresh = false;
  tags.forEach(([tag, value], index) => {
    const text = `${tag}=${value}${index === tags.length - 1 ? '' : ';'}`;
    if (tag === 'b') {
      lines.push(current, ` ${text}`);
      current = '';
      fresh = true;
    } else if (fresh) {
      current = ` ${text}`;
      fresh = false;
    } else if (current.length + 1 + text.length > LINE_LENGTH && current !== `${name}:`) {
      lines.push(current);
      current = ` ${text}`;
    } else {
      current += ` ${text}`;
    }
  });
  if (!fresh) lines.push(current);
  return lines.join('\r\n');
}

/** The value of a folded field, without its name. */
export function arcFieldValue(field: string): string {
  return field.slice(field.indexOf(':') + 1).replace(/^ /, '');
}

export interface ArcSealTagInput {
  algorithm: ArcAlgorithm;
  /** b=; empty while the seal is being signed. */
  signature: string;
  cv: ArcChainValue;
  domain: string;
  instance: number;
  selector: string;
  /** t=; omitted when undefined. */
  timestamp?: number | undefined;
}

/** ARC-Seal tags (RFC 8617 §4.1.3): exactly a, b, cv, d, i, s, t. */
export function arcSealTags(input: ArcSealTagInput): ArcTag[] {
  const tags: ArcTag[] = [
    ['a', input.algorithm],
    ['b', input.signature],
    ['cv', input.cv],
    ['d', input.domain],
    ['i', String(input.instance)],
    ['s', input.selector],
  ];
  if (input.timestamp !== undefined) tags.push(['t', String(input.timestamp)]);
  return tags;
}

export interface ArcMessageSignatureTagInput {
  algorithm: ArcAlgorithm;
  signature: string;
  bodyHash: string;
  canonicalization: ArcCanonicalization;
  domain: string;
  headers: readonly string[];
  instance: number;
  bodyLength?: number | undefined;
  selector: string;
  timestamp?: number | undefined;
  /**
   * Write c=simple/simple too. A sealed field sets it: dkimpy (as the ARC drafts' test suite) reads
   * an AMS without c= as relaxed/relaxed, not RFC 6376's simple/simple, and fails the signature.
   */
  explicitCanonicalization?: boolean | undefined;
}

/**
 * ARC-Message-Signature tags (RFC 8617 §4.1.2): a, b, bh, c, d, h, i, l, s, t in that order. c= is
 * left out for simple/simple, its default (RFC 6376 §3.5), unless `explicitCanonicalization`.
 */
export function arcMessageSignatureTags(input: ArcMessageSignatureTagInput): ArcTag[] {
  const tags: ArcTag[] = [
    ['a', input.algorithm],
    ['b', input.signature],
    ['bh', input.bodyHash],
  ];
  if (input.canonicalization !== 'simple/simple' || input.explicitCanonicalization)
    tags.push(['c', input.canonicalization]);
  tags.push(['d', input.domain], ['h', input.headers.join(':')], ['i', String(input.instance)]);
  if (input.bodyLength !== undefined) tags.push(['l', String(input.bodyLength)]);
  tags.push(['s', input.selector]);
  if (input.timestamp !== undefined) tags.push(['t', String(input.timestamp)]);
  return tags;
}

/**
 * The ARC-Authentication-Results value: `i=N; authserv-id; result; …`, one result per line as the
 * suite's AR consolidation shows (RFC 8617 §4.1.1).
 */
export function formatArcAuthenticationResults(
  instance: number,
  authservId: string,
  results: readonly string[],
): string {
  const head = `i=${instance}; ${authservId}`;
  if (results.length === 0) return head;
  return `${head}; ${results.join(';\r\n ')}`;
}

/** A domain or selector as the fields write it: trimmed, lower case, no trailing dot. */
export function normaliseArcName(value: string): string {
  return value.trim().replace(/\.$/, '').toLowerCase();
}

export interface ArcPreviewSettings {
  instance?: number | undefined;
  algorithm?: ArcAlgorithm | undefined;
  domain?: string | undefined;
  selector?: string | undefined;
  headers?: readonly string[] | undefined;
  bodyLength?: number | undefined;
  chain?: ArcChainValue | undefined;
  canonicalization?: ArcCanonicalization | undefined;
}

export interface ArcPreview {
  /** `ARC-Seal: …` with b= empty. */
  arcSeal: string;
  /** `ARC-Message-Signature: …` with bh= and b= empty. */
  arcMessageSignature: string;
  /** `ARC-Authentication-Results: i=N; domain; arc=cv`. */
  arcAuthenticationResults: string;
  notes: string[];
}

/**
 * The three fields the settings produce, for the generator's live preview. bh=, b= and t= need a
 * message and a key, so they are left empty (t= left out) and the notes say so.
 */
export function buildArcPreview(settings: ArcPreviewSettings): ArcPreview {
  const instance = settings.instance ?? ARC_DEFAULTS.instance;
  const algorithm = settings.algorithm ?? ARC_DEFAULTS.algorithm;
  const domain = normaliseArcName(settings.domain ?? '');
  const selector = normaliseArcName(settings.selector ?? '');
  const headers = normaliseArcHeaders(settings.headers ?? ARC_DEFAULTS.headers);
  const chain = settings.chain ?? ARC_DEFAULTS.chain;
  const canonicalization = settings.canonicalization ?? ARC_DEFAULTS.canonicalization;

  const arcSeal = foldArcField(
    'ARC-Seal',
    arcSealTags({ algorithm, signature: '', cv: chain, domain, instance, selector }),
  );
  const arcMessageSignature = foldArcField(
    'ARC-Message-Signature',
    arcMessageSignatureTags({
      algorithm,
      signature: '',
      bodyHash: '',
      canonicalization,
      domain,
      headers,
      instance,
      bodyLength: settings.bodyLength,
      selector,
    }),
  );
  const arcAuthenticationResults = `ARC-Authentication-Results: ${formatArcAuthenticationResults(
    instance,
    domain,
    [`arc=${chain}`],
  )}`;

  const notes = [
    'bh= (the body hash) and b= (the signatures) are computed when a message is sealed, and t= is the time of sealing.',
    'The ARC-Authentication-Results carry the Authentication-Results your server recorded for the message; arc= is the chain validation status.',
  ];
  if (domain === '' || selector === '') notes.unshift(arcSettingsRequiredMessage);
  if (algorithm === 'rsa-sha1') {
    notes.push('rsa-sha1 must not be used: verifiers must not accept rsa-sha1 signatures (RFC 8301 §3.1).');
  }
  if (instance === 1 && chain !== 'none') {
    notes.push('The first ARC set (i=1) has cv=none: there is no chain before it (RFC 8617 §4.4, §5.2).');
  } else if (instance > 1 && chain === 'none') {
    notes.push(`cv=none is only for i=1; a set with i=${instance} says pass or fail (RFC 8617 §4.4, §5.2).`);
  }
  if (chain === 'fail') {
    notes.push(
      'A seal with cv=fail covers only its own ARC set, and a chain that ends in cv=fail is never sealed again (RFC 8617 §5.1, §5.1.2).',
    );
  }
  if (canonicalization === 'simple/simple') {
    notes.push(
      'c= is left out here: simple/simple is its default (RFC 6376 §3.5). The sealed field writes c=simple/simple, as some validators (dkimpy) read a missing c= as relaxed/relaxed.',
    );
  }
  if (settings.bodyLength !== undefined) {
    notes.push(
      'l= signs only the first part of the body: anyone can append content that still verifies (RFC 6376 §8.2).',
    );
  }
  return { arcSeal, arcMessageSignature, arcAuthenticationResults, notes };
}
