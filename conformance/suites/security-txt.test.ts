import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { type Diagnostic, validateSecurityTxt } from '@rfckit/standards';
import { generateKey } from 'openpgp';
import { openPgpVerifier } from '../../apps/server/src/crypto/openpgp-verifier.ts';

interface Finding {
  code: string;
  line: number | null;
}

interface Case {
  id: string;
  description: string;
  content?: string;
  contentBase64?: string;
  fetchedFrom?: string[];
  expected: { valid: boolean; errors: Finding[]; recommendations: Finding[]; notifications: Finding[] };
}

const file = path.join(process.env.CONFORMANCE_DIR!, 'security-txt', 'cases.json');
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };

// The placeholders of cases.json, for today's date (UTC)
const today = new Date();
const inTenDays = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 10));
const okDate = inTenDays.toISOString().slice(0, 10);
const placeholders: Record<string, string> = {
  '{{EXPIRES_OK}}': `${okDate}T18:37:07Z`,
  '{{EXPIRES_OK_LOWER_Z}}': `${okDate}T18:37:07z`,
  '{{EXPIRES_OK_OFFSET}}': `${okDate}T18:37:07+02:00`,
  '{{EXPIRES_TOO_LONG}}': `${today.getUTCFullYear() + 3}-01-01T12:00:00Z`,
};

function substitute(text: string): string {
  return Object.entries(placeholders).reduce((out, [name, value]) => out.replaceAll(name, value), text);
}

/** The bytes of a case: its text, or its raw bytes with the placeholders replaced byte-wise. */
function input(testCase: Case): string | Uint8Array {
  if (testCase.content !== undefined) return substitute(testCase.content);
  let bytes = Buffer.from(testCase.contentBase64!, 'base64');
  for (const [name, value] of Object.entries(placeholders)) {
    let at: number;
    while ((at = bytes.indexOf(name)) !== -1) {
      bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(value), bytes.subarray(at + name.length)]);
    }
  }
  return new Uint8Array(bytes);
}

/**
 * Where we report more than sectxt, deliberately; each entry says why. Everything else must match
 * sectxt's codes and lines exactly.
 */
const deliberate: Record<string, { extraErrors?: Finding[]; extraRecommendations?: Finding[]; why: string }> =
  {
    'single-line': {
      extraErrors: [{ code: 'invalid_uri', line: 1 }],
      why:
        "the Contact value 'mailto:…  Expires: …  # All on a single line' contains spaces, so it is not a URI " +
        '(RFC 9116 §2.5.3 requires RFC 3986 syntax); sectxt only looks at the scheme',
    },
    'invalid-utf8': {
      extraErrors: [{ code: 'invalid_uri', line: 3 }],
      why: 'the bytes 0xFF 0xFE sit in the Policy URL, and a URI can hold only ASCII (RFC 3986 §2); sectxt only looks at the scheme',
    },
    'canonical-redirect-first-url': {
      extraRecommendations: [{ code: 'redirect_other_host', line: null }],
      why:
        'the file was fetched from example.com and redirected to www.example.com: RFC 9116 §5.2 asks researchers ' +
        'to record redirects, which can lead to a host an attacker controls, so we say so; sectxt does not',
    },
  };

/**
 * sectxt reports these file-level findings without a line; we point at the line that triggers
 * them (the second Expires, the CSAF value, the first Canonical …), which is what an editor needs.
 */
const linedWhereSectxtIsNot = new Set([
  'multi_expire',
  'multi_lang',
  'multiple_csaf_fields',
  'no_csaf_file',
  'no_canonical_match',
]);

/** Our own notes that sectxt does not have: a signed file whose signature was not checked. */
const ownInfoCodes = new Set(['signature_not_verified']);

function findings(diagnostics: Diagnostic[], severity: Diagnostic['severity']): Finding[] {
  return diagnostics
    .filter((d) => d.severity === severity && !(severity === 'info' && ownInfoCodes.has(d.code)))
    .map((d) => ({ code: d.code, line: d.line ?? null }));
}

function sorted(list: Finding[]): Finding[] {
  return [...list].sort((a, b) => a.code.localeCompare(b.code) || (a.line ?? 0) - (b.line ?? 0));
}

/** Ours against sectxt's, with our lines dropped where sectxt gives none by design. */
function assertFindings(ours: Finding[], expected: Finding[], what: string) {
  const comparable = ours.map((f) => {
    const sectxtHasNoLine = expected.some((e) => e.code === f.code && e.line === null);
    return linedWhereSectxtIsNot.has(f.code) && sectxtHasNoLine ? { code: f.code, line: null } : f;
  });
  assert.deepEqual(sorted(comparable), sorted(expected), what);
}

describe('security.txt: the 49 sectxt cases (conformance/security-txt/cases.json)', () => {
  it('has all 49 cases', () => {
    assert.equal(cases.length, 49);
  });

  for (const testCase of cases) {
    it(`${testCase.id}: ${testCase.description}`, async () => {
      const options = testCase.fetchedFrom ? { source: { urls: testCase.fetchedFrom } } : {};
      const bytesOrText = input(testCase);
      const result = await validateSecurityTxt(bytesOrText, options);
      const { expected } = testCase;
      const extra = deliberate[testCase.id];

      assert.equal(result.valid, expected.valid, `valid: ${JSON.stringify(result.diagnostics, null, 1)}`);
      assertFindings(
        findings(result.diagnostics, 'error'),
        [...expected.errors, ...(extra?.extraErrors ?? [])],
        `errors${extra?.extraErrors ? ` (plus ours: ${extra.why})` : ''}`,
      );
      assertFindings(
        findings(result.diagnostics, 'warning'),
        [...expected.recommendations, ...(extra?.extraRecommendations ?? [])],
        `recommendations${extra?.extraRecommendations ? ` (plus ours: ${extra.why})` : ''}`,
      );
      assertFindings(findings(result.diagnostics, 'info'), expected.notifications, 'notifications');

      // every line we name is in the file (counting the position after a final line break, as sectxt does)
      const text = typeof bytesOrText === 'string' ? bytesOrText : Buffer.from(bytesOrText).toString('utf8');
      const lineCount = text.split('\n').length;
      for (const d of result.diagnostics) {
        if (d.line !== undefined)
          assert.ok(d.line >= 1 && d.line <= lineCount, `${d.code} on line ${d.line}`);
      }

      // a complete signature we could not check is said so, never passed over in silence
      const hasSignatureBlock = /-----BEGIN PGP SIGNATURE-----/.test(testCase.content ?? '');
      const notVerified = result.diagnostics.some((d) => d.code === 'signature_not_verified');
      assert.equal(notVerified, hasSignatureBlock, 'signature_not_verified when (and only when) signed');
    });
  }
});

describe('security.txt: where we differ from sectxt, on purpose: signatures are verified', () => {
  // sectxt never checks the signature, so its signed cases are "valid" although their signature
  // (taken from sectxt's tests) was made by a key nobody has. Given the expected signer's key,
  // we verify: the signature is reported as made by another key, and the file is invalid.
  let publicKey = '';
  before(async () => {
    ({ publicKey } = await generateKey({
      type: 'ecc',
      curve: 'ed25519Legacy',
      userIDs: [{ email: 'security@example.com' }],
      format: 'armored',
    }));
  });

  const signed = cases.filter((c) => /-----BEGIN PGP SIGNATURE-----/.test(c.content ?? ''));
  it('covers the signed cases', () => {
    assert.equal(signed.length, 6);
  });

  for (const testCase of signed) {
    it(`${testCase.id}: signature_wrong_key with our key`, async () => {
      const result = await validateSecurityTxt(input(testCase), { publicKey, verifier: openPgpVerifier });
      const wrongKey = result.diagnostics.find((d) => d.code === 'signature_wrong_key');
      assert.ok(wrongKey, JSON.stringify(result.diagnostics, null, 1));
      assert.equal(wrongKey.severity, 'error');
      // the issuer key ID inside sectxt's signature packet
      assert.match(wrongKey.message, /3B3880F3281B5D1D/);
      assert.equal(result.valid, false);
      assert.equal(result.parsed?.signature?.verification?.status, 'wrong-key');
    });
  }
});
