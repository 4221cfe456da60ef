/**
 * ARC sealing (RFC 8617 §5.1): adds the next ARC set to a message. The existing chain is
 * validated with keys from DNS to get cv=, the Authentication-Results of our authserv-id become
 * the ARC-Authentication-Results, the ARC-Message-Signature signs the chosen header fields and the
 * body, and the ARC-Seal signs the ARC sets. Fields are written in the ARC signing suite's
 * standardized format (tags alphabetical, lower case, one space after each ';'), with the
 * formatting functions the web preview uses.
 *
 * mailauth's own sealer (createSeal/sealMessage) writes tags in its own order and refuses
 * rsa-sha1, so the signing step is ours; its canonicalization (RFC 6376 §3.4) is reused.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  createHash,
  sign,
  type KeyObject,
} from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import {
  arcFieldValue,
  arcMaxInstance,
  arcMessageSignatureTags,
  arcSealTags,
  foldArcField,
  formatArcAuthenticationResults,
  generateDkimRecord,
  normaliseArcHeaders,
  normaliseDkimName,
  type ArcAlgorithm,
  type ArcChainValue,
  type ArcGenerateBody,
  type ArcGenerateResult,
  type ArcValidateResult,
  type Resolver,
} from '@rfckit/standards';
import { RSA_MINIMUM_BITS } from '../../mailauth/key-lookups.ts';
import { validateArc } from './validate.ts';

const require = createRequire(import.meta.url);

interface ParsedHeader {
  /** Field name, lower case. */
  key: string | null;
  /** The field with its folds as CRLF, without the final line break. */
  line: Buffer;
}

interface BodyHasher {
  update(chunk: Buffer | null, final?: boolean): void;
  digest(encoding: 'base64'): string;
  /** Octets of the canonicalized body, l= or not (known after digest). */
  canonicalizedLength: number;
}

// mailauth's canonicalization helpers (no type declarations ship for these files)
const tools = require('mailauth/lib/tools.js') as {
  parseHeaders(buffer: Buffer): { parsed: ParsedHeader[] };
  /** Takes the octets: a JS string would be read as Latin-1. */
  formatRelaxedLine(line: Buffer, suffix?: string): Buffer;
};
const body = require('mailauth/lib/dkim/body/index.js') as {
  dkimBody(canonicalization: string, algorithm: string, maxBodyLength?: number): BodyHasher;
};

export interface SealOptions {
  /** Where the keys of the existing chain's seals are looked up. */
  resolver: Resolver;
  /** Time of sealing when the request gives no timestamp (default: now). */
  now?: Date;
  /** Told the validation of the chain already on the message, when it has one. */
  onChainValidated?: (validation: ArcValidateResult) => void;
}

export type SealOutcome =
  { ok: true; result: ArcGenerateResult } | { ok: false; status: 400 | 422; code: string; error: string };

const ARC_FIELDS = ['arc-seal', 'arc-message-signature', 'arc-authentication-results'];
/** A header field's name and colon at the start of a line (RFC 5322 §2.2, §3.6.8). */
const FIELD_START = /^[\x21-\x39\x3b-\x7e]+[ \t]*:/;
const RSA_RECOMMENDED = 2048;

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

function refuse(status: 400 | 422, code: string, error: string): SealOutcome {
  return { ok: false, status, code, error };
}

/** The tag values of an ARC-Seal or ARC-Message-Signature, names lower case, values trimmed. */
function tagValues(line: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of line.slice(line.indexOf(':') + 1).split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (name !== '' && !tags.has(name))
      tags.set(
        name,
        part
          .slice(eq + 1)
          .replace(/\s+/g, ' ')
          .trim(),
      );
  }
  return tags;
}

/** i= of an ARC header field: the leading `i=N;` of an AAR (RFC 8617 §4.1.1), else the i tag. */
function instanceOf(key: string, line: string): number | null {
  const raw =
    key === 'arc-authentication-results'
      ? /^\s*i\s*=\s*(\d{1,3})\s*;/.exec(line.slice(line.indexOf(':') + 1))?.[1]
      : tagValues(line).get('i');
  if (raw === undefined || !/^\d{1,3}$/.test(raw)) return null;
  const instance = Number(raw);
  return instance >= 1 ? instance : null;
}

/**
 * Splits a header value on a separator outside comments and quoted strings (RFC 5322 §3.2.2,
 * §3.2.4), as an Authentication-Results value is split into authserv-id and results.
 */
function splitOutside(value: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    if (char === '\\' && (quoted || depth > 0)) {
      current += char + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"' && depth === 0) quoted = !quoted;
    else if (char === '(' && !quoted) depth++;
    else if (char === ')' && !quoted && depth > 0) depth--;
    if (char === separator && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** Unfolds and reduces whitespace runs to one space. */
function oneLine(text: string): string {
  return text
    .replace(/\r?\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** The authserv-id of an Authentication-Results value: its first word, comments removed. */
function authservIdOf(value: string): string {
  const head = oneLine((splitOutside(value, ';')[0] ?? '').replace(/\([^()]*\)/g, ' '));
  return (head.split(' ')[0] ?? '').toLowerCase();
}

/**
 * The results of every Authentication-Results field of our authserv-id, in message order (the
 * signing suite's "AR Consolidation"): each field's results after its authserv-id, one line each.
 */
function consolidateResults(headers: ParsedHeader[], authservId: string): string[] {
  const results: string[] = [];
  const wanted = authservId.toLowerCase();
  for (const header of headers) {
    if (header.key !== 'authentication-results') continue;
    const line = header.line.toString('utf8');
    const value = line.slice(line.indexOf(':') + 1);
    if (authservIdOf(value) !== wanted) continue;
    for (const part of splitOutside(value, ';').slice(1)) {
      const result = oneLine(part);
      // `none` says there were no results (RFC 8601 §2.2)
      if (result !== '' && result.toLowerCase() !== 'none') results.push(result);
    }
  }
  return results;
}

interface SigningKey {
  key: KeyObject;
  generated: boolean;
  pem: string | null;
  bits: number;
}

const generatePair = promisify(generateKeyPair);

/** The supplied PEM key, checked for the algorithm, or a fresh key (generated off the event loop). */
async function readKey(
  pem: string | undefined,
  algorithm: ArcAlgorithm,
): Promise<{ ok: true; key: SigningKey } | { ok: false; error: string }> {
  const wanted = algorithm === 'ed25519-sha256' ? 'ed25519' : 'rsa';
  if (pem === undefined || pem.trim() === '') {
    const pair =
      wanted === 'rsa'
        ? await generatePair('rsa', { modulusLength: RSA_RECOMMENDED })
        : await generatePair('ed25519');
    return {
      ok: true,
      key: {
        key: pair.privateKey,
        generated: true,
        pem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        bits: wanted === 'rsa' ? RSA_RECOMMENDED : 256,
      },
    };
  }
  const text = pem.trim();
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text) || /Proc-Type:\s*4,ENCRYPTED/.test(text)) {
    return { ok: false, error: 'The private key is encrypted: supply it without a passphrase' };
  }
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text)) {
    return {
      ok: false,
      error:
        'The private key must be PEM: -----BEGIN PRIVATE KEY----- (PKCS#8, RSA or Ed25519) or -----BEGIN RSA PRIVATE KEY----- (PKCS#1)',
    };
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return { ok: false, error: 'The private key could not be read: the PEM data is damaged or incomplete' };
  }
  const type = key.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ed25519') {
    return {
      ok: false,
      error: `The private key is ${type ?? 'of an unknown type'}: ARC signs with RSA or Ed25519`,
    };
  }
  if (type !== wanted) {
    return {
      ok: false,
      error: `The private key is ${type === 'rsa' ? 'an RSA' : 'an Ed25519'} key, but ${algorithm} needs ${
        wanted === 'rsa' ? 'an RSA' : 'an Ed25519'
      } key`,
    };
  }
  const bits = type === 'rsa' ? (key.asymmetricKeyDetails?.modulusLength ?? 0) : 256;
  if (type === 'rsa' && bits < RSA_MINIMUM_BITS) {
    return {
      ok: false,
      error: `The RSA key has ${bits} bits: verifiers refuse keys under ${RSA_MINIMUM_BITS} bits (RFC 8301 §3.2)`,
    };
  }
  return { ok: true, key: { key, generated: false, pem: null, bits } };
}

/** RFC 6376 §3.3 (and RFC 8463 §3 for Ed25519, which signs the SHA-256 of the data). */
function signData(algorithm: ArcAlgorithm, data: Buffer, key: KeyObject): string {
  if (algorithm === 'ed25519-sha256')
    return sign(null, createHash('sha256').update(data).digest(), key).toString('base64');
  return sign(algorithm === 'rsa-sha1' ? 'sha1' : 'sha256', data, key).toString('base64');
}

/** The header block and the body, split at the first empty line, both with CRLF line endings. */
function splitMessage(message: string): { header: string; body: string } {
  const crlf = message.replace(/\r?\n/g, '\r\n');
  const end = crlf.startsWith('\r\n') ? 0 : crlf.indexOf('\r\n\r\n');
  if (end < 0) return { header: crlf, body: '' };
  return { header: crlf.slice(0, end), body: crlf.slice(end === 0 ? 2 : end + 4) };
}

/** Seals a message with the next ARC set. Never throws for anything in the input. */
export async function sealMessage(input: ArcGenerateBody, options: SealOptions): Promise<SealOutcome> {
  const domain = normaliseDkimName(input.domain);
  if (!domain) {
    return refuse(
      400,
      'VALIDATION_ERROR',
      `'${input.domain.trim().slice(0, 80)}' is not a valid domain name`,
    );
  }
  const selector = normaliseDkimName(input.selector);
  if (!selector) {
    return refuse(
      400,
      'VALIDATION_ERROR',
      `'${input.selector.trim().slice(0, 80)}' is not a valid selector: use letters, digits, hyphens and dots`,
    );
  }
  const authservId = (input.authservId ?? '').trim() === '' ? domain : (input.authservId ?? '').trim();
  if (!/^[\x21-\x7e]+$/.test(authservId) || /[;()"\\]/.test(authservId)) {
    return refuse(
      400,
      'VALIDATION_ERROR',
      `'${authservId.slice(0, 80)}' is not a valid authserv-id (RFC 8601 §2.2)`,
    );
  }
  const { header, body: messageBody } = splitMessage(input.message);
  if (!FIELD_START.test(header)) {
    return refuse(400, 'VALIDATION_ERROR', 'The message does not start with a header field (Name: value)');
  }

  const algorithm = input.algorithm;
  const keyOutcome = await readKey(input.privateKey, algorithm);
  if (!keyOutcome.ok) return refuse(400, 'INVALID_KEY', keyOutcome.error);
  const signingKey = keyOutcome.key;
  const publicKey = createPublicKey(signingKey.key)
    .export({ type: 'spki', format: 'der' })
    .toString('base64');
  const record = generateDkimRecord({ domain, selector, publicKey, algorithm });
  if (!record.ok) return refuse(400, 'INVALID_KEY', record.error);

  // the key record's findings: RFC 8301 §3.2 SHOULD for a 1024-bit key, §3.1 for rsa-sha1
  const warnings: string[] = [...record.result.warnings];

  const headers = tools.parseHeaders(Buffer.from(header, 'utf8')).parsed;

  // RFC 8617 §5.1: the new set follows the highest instance on the message
  let highest = 0;
  let latestCv: string | null = null;
  for (const field of headers) {
    if (field.key === null || !ARC_FIELDS.includes(field.key)) continue;
    const line = field.line.toString('utf8');
    const instance = instanceOf(field.key, line);
    if (instance === null) continue;
    if (instance > highest) {
      highest = instance;
      latestCv = null;
    }
    if (instance === highest && field.key === 'arc-seal')
      latestCv = (tagValues(line).get('cv') ?? '').toLowerCase();
  }
  if (latestCv === 'fail') {
    return refuse(
      422,
      'ARC_CHAIN_FAILED',
      `The newest ARC-Seal (i=${highest}) already says cv=fail: a failed chain must not be sealed again (RFC 8617 §5.1)`,
    );
  }
  if (highest >= arcMaxInstance) {
    return refuse(
      422,
      'ARC_CHAIN_FULL',
      `The message has ARC sets up to i=${highest}: instances end at ${arcMaxInstance} (RFC 8617 §4.2.1)`,
    );
  }
  const instance = highest + 1;
  if (input.instance !== undefined && input.instance !== instance) {
    warnings.push(
      highest === 0
        ? `Instance ${input.instance} was asked for, but the message has no ARC sets: this set is i=1 (RFC 8617 §4.2.1)`
        : `Instance ${input.instance} was asked for, but the message has ARC sets up to i=${highest}: this set is i=${instance} (RFC 8617 §4.2.1)`,
    );
  }

  // RFC 8617 §5.1.1: cv= is what validating the chain on the message found
  let cv: ArcChainValue = 'none';
  let chainReason: string | null = null;
  if (highest > 0) {
    // the same validation as POST /v1/arc/validate (RFC 8617 §5.2, RFC 8301 on top)
    const validation = await validateArc(input.message, domain, {
      resolver: options.resolver,
      now: options.now,
    });
    options.onChainValidated?.(validation);
    const { chain } = validation;
    cv = chain.result === 'pass' ? 'pass' : 'fail';
    chainReason = chain.result === 'pass' ? null : (chain.reason ?? 'the ARC chain did not validate');
  }
  if (input.chain !== undefined && input.chain !== cv) {
    warnings.push(
      cv === 'none'
        ? `cv=none was used, not cv=${input.chain}: the message has no ARC sets to validate (RFC 8617 §4.4)`
        : `cv=${cv} was used, not cv=${input.chain}: ${
            cv === 'pass'
              ? 'the existing ARC chain validated'
              : `the existing ARC chain did not validate — ${chainReason}`
          } (RFC 8617 §5.1.1)`,
    );
  }

  // ARC-Authentication-Results (RFC 8617 §4.1.1): our Authentication-Results, arc= first if absent
  const results = consolidateResults(headers, authservId);
  const recordedArc = results.find((result) => /^arc\s*=/i.test(result));
  if (recordedArc === undefined) results.unshift(`arc=${cv}`);
  else if (!new RegExp(`^arc\\s*=\\s*${cv}\\b`, 'i').test(recordedArc)) {
    warnings.push(
      `The Authentication-Results of ${authservId} record ${recordedArc.split(/[\s;]/)[0]}, but the chain validated as ${cv}: the ARC-Authentication-Results copy what was recorded`,
    );
  }
  const aarValue = formatArcAuthenticationResults(instance, authservId, results);
  const aarField = `ARC-Authentication-Results: ${aarValue}`;

  // ARC-Message-Signature: body hash (RFC 6376 §3.7), l= never beyond the canonicalized body
  const [headerCanon, bodyCanon] = input.canonicalization.split('/') as [string, string];
  const hashAlgorithm = algorithm === 'rsa-sha1' ? 'sha1' : 'sha256';
  const bodyBuffer = Buffer.from(messageBody, 'utf8');
  let bodyLength = input.bodyLength;
  if (bodyLength !== undefined) {
    const measure = body.dkimBody(bodyCanon, hashAlgorithm);
    measure.update(bodyBuffer);
    measure.digest('base64');
    if (bodyLength > measure.canonicalizedLength) {
      warnings.push(
        `l=${bodyLength} is longer than the canonicalized body (${measure.canonicalizedLength} octets): l=${measure.canonicalizedLength} was used`,
      );
      bodyLength = measure.canonicalizedLength;
    }
  }
  const hasher = body.dkimBody(bodyCanon, hashAlgorithm, bodyLength);
  hasher.update(bodyBuffer);
  const bodyHash = hasher.digest('base64');

  // the header fields h= names, picked from the bottom up (RFC 6376 §5.4.2) of the message as it
  // will be, with the new ARC-Authentication-Results on top
  const signedNames = normaliseArcHeaders(input.headers);
  const candidates: ParsedHeader[] = [
    { key: 'arc-authentication-results', line: utf8(aarField) },
    ...headers,
  ];
  const used = new Set<ParsedHeader>();
  const signedLines: Buffer[] = [];
  const missing: string[] = [];
  for (const name of signedNames) {
    const field = candidates.findLast((candidate) => candidate.key === name && !used.has(candidate));
    if (field === undefined) {
      if (!missing.includes(name)) missing.push(name);
      continue;
    }
    used.add(field);
    signedLines.push(
      headerCanon === 'relaxed'
        ? tools.formatRelaxedLine(field.line, '\r\n')
        : Buffer.concat([field.line, Buffer.from('\r\n')]),
    );
  }
  if (missing.length > 0) {
    warnings.push(
      `h= names ${missing.join(', ')}, which the message does not have: adding ${
        missing.length === 1 ? 'that field' : 'those fields'
      } later breaks the signature (RFC 6376 §5.4)`,
    );
  }
  if (algorithm === 'rsa-sha1') {
    warnings.push('ARC validators refuse rsa-sha1 (RFC 8301 §3.1): this chain will not validate anywhere');
  }

  const timestamp = input.timestamp ?? Math.floor((options.now ?? new Date()).getTime() / 1000);
  const amsTags = (signature: string) =>
    arcMessageSignatureTags({
      algorithm,
      signature,
      bodyHash,
      canonicalization: input.canonicalization,
      // c=simple/simple written out: dkimpy reads a missing c= in an AMS as relaxed/relaxed
      explicitCanonicalization: true,
      domain,
      headers: signedNames,
      instance,
      bodyLength,
      selector,
      timestamp,
    });
  // the field with b= empty folds exactly as the signed one (foldArcField), RFC 6376 §3.7
  const amsUnsigned = foldArcField('ARC-Message-Signature', amsTags(''));
  const amsData = Buffer.concat([
    ...signedLines,
    headerCanon === 'relaxed' ? tools.formatRelaxedLine(utf8(amsUnsigned)) : utf8(amsUnsigned),
  ]);
  const amsField = foldArcField(
    'ARC-Message-Signature',
    amsTags(signData(algorithm, amsData, signingKey.key)),
  );

  // ARC-Seal (RFC 8617 §5.1.1): relaxed header canonicalization of every ARC set in instance
  // order, AAR, AMS, AS each, then the new set; a cv=fail seal signs only its own set (§5.1.2)
  const sealChunks: Buffer[] = [];
  if (cv === 'pass') {
    for (let i = 1; i < instance; i++) {
      for (const key of ['arc-authentication-results', 'arc-message-signature', 'arc-seal']) {
        const field = headers.find(
          (candidate) => candidate.key === key && instanceOf(key, candidate.line.toString('utf8')) === i,
        );
        if (field) sealChunks.push(tools.formatRelaxedLine(field.line, '\r\n'));
      }
    }
  }
  const sealTags = (signature: string) =>
    arcSealTags({ algorithm, signature, cv, domain, instance, selector, timestamp });
  sealChunks.push(
    tools.formatRelaxedLine(utf8(aarField), '\r\n'),
    tools.formatRelaxedLine(utf8(amsField), '\r\n'),
    tools.formatRelaxedLine(utf8(foldArcField('ARC-Seal', sealTags('')))),
  );
  const sealField = foldArcField(
    'ARC-Seal',
    sealTags(signData(algorithm, Buffer.concat(sealChunks), signingKey.key)),
  );

  // prepended newest first, as sealers write them: ARC-Seal, ARC-Message-Signature, ARC-Authentication-Results
  const fields = [sealField, amsField, aarField].join('\r\n');
  const eol = input.message.includes('\r\n') ? '\r\n' : '\n';
  return {
    ok: true,
    result: {
      instance,
      cv,
      algorithm,
      arcSeal: arcFieldValue(sealField),
      arcMessageSignature: arcFieldValue(amsField),
      arcAuthenticationResults: aarValue,
      headers: fields,
      sealedMessage: `${fields.replace(/\r\n/g, eol)}${eol}${input.message}`,
      chain: { existingSets: highest, reason: chainReason },
      warnings,
      key: {
        generated: signingKey.generated,
        privateKeyPem: signingKey.pem,
        dnsName: record.result.dnsName,
        record: record.result.record,
        keyBits: signingKey.bits,
      },
    },
  };
}
