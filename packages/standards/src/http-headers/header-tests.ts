// The Observatory's tests that read one header each. A header that is present but empty counts
// as absent, and only the first 256 (X-Frame-Options: 1024) characters are read, as it does.
import type { TestOutcome } from './outcome.ts';

function normalised(value: string | null, limit = 256): string | null {
  if (!value) return null;
  return value.slice(0, limit).trim().toLowerCase();
}

const privateReferrerPolicies = [
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
];
const unsafeReferrerPolicies = [
  'origin',
  'origin-when-cross-origin',
  'unsafe-url',
  'no-referrer-when-downgrade',
];

/**
 * Referrer-Policy: the header (repeats joined) then any `<meta name="referrer">`; as in browsers,
 * the last policy value a browser knows wins (W3C Referrer Policy §11.1).
 */
export function referrerPolicyTest(header: string | null, meta: string | null): TestOutcome {
  const parts = [header, meta].filter((v) => v !== null);
  if (parts.length === 0) return { result: 'referrer-policy-not-implemented', pass: true, details: [] };
  const value = parts.join(', ');
  const known = value
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => privateReferrerPolicies.includes(token) || unsafeReferrerPolicies.includes(token));
  const policy = known.at(-1) ?? '';
  const details = [
    meta !== null
      ? `Header ${header === null ? 'absent' : `"${header}"`}; <meta name="referrer"> "${meta}"; in force: ${policy || 'none recognised'}`
      : `In force: ${policy || 'none recognised'}`,
  ];
  if (privateReferrerPolicies.includes(policy))
    return { result: 'referrer-policy-private', pass: true, details };
  if (unsafeReferrerPolicies.includes(policy))
    return { result: 'referrer-policy-unsafe', pass: false, details };
  return { result: 'referrer-policy-header-invalid', pass: false, details };
}

export function xContentTypeOptionsTest(header: string | null): TestOutcome {
  const value = normalised(header);
  if (value === null) return { result: 'x-content-type-options-not-implemented', pass: false, details: [] };
  if (value === 'nosniff') return { result: 'x-content-type-options-nosniff', pass: true, details: [] };
  return {
    result: 'x-content-type-options-header-invalid',
    pass: false,
    details: [`"${header}" is not nosniff (the only value; a repeated header is also invalid).`],
  };
}

/**
 * X-Frame-Options, superseded by CSP frame-ancestors when the policy has it (CSP3 §6.4.2:
 * browsers then ignore X-Frame-Options).
 */
export function xFrameOptionsTest(
  header: string | null,
  frameAncestors: 'header' | 'meta-only' | null,
): TestOutcome {
  const value = normalised(header, 1024);
  const details: string[] = [];
  let result: string;
  if (value === null) result = 'x-frame-options-not-implemented';
  else if (value === 'deny' || value === 'sameorigin') result = 'x-frame-options-sameorigin-or-deny';
  else if (value.startsWith('allow-from')) {
    result = 'x-frame-options-allow-from-origin';
    details.push('Current browsers ignore ALLOW-FROM; only CSP frame-ancestors can allow chosen origins.');
  } else {
    result = 'x-frame-options-header-invalid';
    details.push(`"${header}" is neither DENY nor SAMEORIGIN (a repeated header is also invalid).`);
  }
  if (frameAncestors !== null) {
    result = 'x-frame-options-implemented-via-csp';
    if (frameAncestors === 'meta-only') {
      details.push(
        'frame-ancestors is only in a <meta> policy, where browsers ignore it; the Observatory counts it anyway. Send it in the Content-Security-Policy header.',
      );
    }
  }
  const pass = [
    'x-frame-options-sameorigin-or-deny',
    'x-frame-options-allow-from-origin',
    'x-frame-options-implemented-via-csp',
  ].includes(result);
  return { result, pass, details };
}

export function crossOriginResourcePolicyTest(header: string | null): TestOutcome {
  const value = normalised(header);
  let result: string;
  if (value === null) result = 'corp-not-implemented';
  else if (value === 'same-site') result = 'corp-implemented-with-same-site';
  else if (value === 'same-origin') result = 'corp-implemented-with-same-origin';
  else if (value === 'cross-origin') result = 'corp-implemented-with-cross-origin';
  else result = 'corp-header-invalid';
  const details =
    result === 'corp-header-invalid' ? [`"${header}" is not same-site, same-origin or cross-origin.`] : [];
  return { result, pass: result !== 'corp-header-invalid', details };
}

/**
 * COOP and COEP are structured-field items (HTML §7.1.3, §7.1.4); parameters such as
 * report-to="…" are allowed and do not change the policy, so only the token before ";" is read.
 */
function structuredToken(header: string | null): { token: string | null; parameters: boolean } {
  const value = normalised(header);
  if (value === null) return { token: null, parameters: false };
  const semicolon = value.indexOf(';');
  return semicolon === -1
    ? { token: value, parameters: false }
    : { token: value.slice(0, semicolon).trim(), parameters: true };
}

const parameterNote =
  'Parameters after ";" (such as report-to) are valid and ignored here; the Observatory itself would call this header invalid.';

export function crossOriginOpenerPolicyTest(header: string | null): TestOutcome {
  const { token, parameters } = structuredToken(header);
  const results: Record<string, string> = {
    'same-origin': 'coop-implemented-with-same-origin',
    'same-origin-allow-popups': 'coop-implemented-with-same-origin-allow-popups',
    'noopener-allow-popups': 'coop-implemented-with-noopener-allow-popups',
    'unsafe-none': 'coop-implemented-with-unsafe-none',
  };
  if (token === null) return { result: 'coop-not-implemented', pass: true, details: [] };
  const result = results[token] ?? 'coop-header-invalid';
  const details: string[] = [];
  if (result === 'coop-header-invalid')
    details.push(`"${header}" is not a Cross-Origin-Opener-Policy value.`);
  else if (parameters) details.push(parameterNote);
  return { result, pass: result !== 'coop-header-invalid', details };
}

export function crossOriginEmbedderPolicyTest(header: string | null): TestOutcome {
  const { token, parameters } = structuredToken(header);
  const results: Record<string, string> = {
    'require-corp': 'coep-implemented-with-require-corp',
    credentialless: 'coep-implemented-with-credentialless',
    'unsafe-none': 'coep-implemented-with-unsafe-none',
  };
  if (token === null) return { result: 'coep-not-implemented', pass: true, details: [] };
  const result = results[token] ?? 'coep-header-invalid';
  const details: string[] = [];
  if (result === 'coep-header-invalid')
    details.push(`"${header}" is not a Cross-Origin-Embedder-Policy value.`);
  else if (parameters) details.push(parameterNote);
  return { result, pass: result !== 'coep-header-invalid', details };
}

export interface CorsTestInput {
  /** Access-Control-Allow-Origin of the answer to a CORS preflight. */
  allowOrigin: string | null;
  allowCredentials: string | null;
  /** The Origin the preflight sent; null when unknown (pasted headers). */
  requestOrigin: string | null;
}

/**
 * CORS: a preflight from a foreign origin whose Origin comes back in Access-Control-Allow-Origin
 * together with Access-Control-Allow-Credentials: true means any site can read responses with
 * the visitor's cookies.
 */
export function corsTest({ allowOrigin, allowCredentials, requestOrigin }: CorsTestInput): TestOutcome {
  const value = normalised(allowOrigin);
  if (value === null) {
    return { result: 'cross-origin-resource-sharing-not-implemented', pass: true, details: [] };
  }
  if (value === '*') {
    return {
      result: 'cross-origin-resource-sharing-implemented-with-public-access',
      pass: true,
      details: [],
    };
  }
  const credentials = allowCredentials?.trim().toLowerCase() === 'true';
  if (requestOrigin !== null && allowOrigin === requestOrigin && credentials) {
    return {
      result: 'cross-origin-resource-sharing-implemented-with-universal-access',
      pass: false,
      details: [
        `A preflight from ${requestOrigin} was answered with that origin and Access-Control-Allow-Credentials: true.`,
      ],
    };
  }
  const details = [`Access-Control-Allow-Origin: ${allowOrigin}${credentials ? ' with credentials' : ''}.`];
  if (requestOrigin === null && credentials) {
    details.push(
      'Whether the server copies any Origin it is sent into this header (−50) shows only when a request is made: use the Analyser.',
    );
  }
  return { result: 'cross-origin-resource-sharing-implemented-with-restricted-access', pass: true, details };
}
