// ARC interoperability (RFC 8617) between our routes and independent implementations, with keys
// served by the lab DNS server:
// - chains sealed by dkimpy (recorded in fixtures/arc-dkimpy.json: 1, 2 and 3 hops, a non-ASCII
//   folded Subject, Authentication-Results of several authserv-ids, an older AMS broken by a list
//   rewrite, a 512-bit key) and by mailauth (live: Ed25519 mixed with RSA, wrong cv, instance gaps,
//   duplicate sets, revoked/missing/SERVFAIL/timeout keys) are validated by POST /v1/arc/validate;
// - messages sealed by POST /v1/arc/generate (every canonicalization, l=, Ed25519, three hops) are
//   verified by mailauth's own ARC code, and by dkimpy when Debian's python3-dkim is installed;
// - bad input gets the spec's messages and never a 5xx, and /docs/json lists both routes.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ArcGenerateResult, ArcValidateResult } from '@rfckit/standards';
import { sealMessage } from 'mailauth';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord, mailauthArcVerify } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { DKIMPY_PRELUDE, hasPythonModules, runPythonJson } from './helpers/python.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

interface DkimpyFixture {
  records: Record<string, string>;
  messages: Record<'one' | 'two' | 'three' | 'olderBroken' | 'weak', string>;
  dkimpyVerdicts: Record<string, string>;
}
const dkimpy = JSON.parse(
  readFileSync(new URL('./fixtures/arc-dkimpy.json', import.meta.url), 'utf8'),
) as DkimpyFixture;

/** dkimpy's ARC verifier, when Debian's python3-dkim (with python3-authres) is on this machine. */
const hasDkimpy = hasPythonModules('dkim', 'authres');
const DKIMPY_VERIFY = `${DKIMPY_PRELUDE}
cv, results, comment = dkim.arc_verify(req['message'].encode(), dnsfunc=dnsfunc)
print(json.dumps({'cv': cv.decode(), 'comment': comment}))
`;
function dkimpyVerify(message: string, keys: Record<string, string>): { cv: string; comment: string } {
  return runPythonJson(DKIMPY_VERIFY, { message, keys });
}

const rsaPair = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits });
const rsaA = rsaPair(2048);
const rsaB = rsaPair(2048);
const edA = generateKeyPairSync('ed25519');
const edB = generateKeyPairSync('ed25519');
type Pair = typeof rsaA | typeof edA;
const pemOf = (pair: Pair) => pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const spki = (pair: Pair) => pair.publicKey.export({ type: 'spki', format: 'der' });
const keyRecord = (pair: Pair) => dkimKeyRecord(pair.publicKey);

const keys: Record<string, string> = {
  ...dkimpy.records,
  'ma1._domainkey.one.mailauth.test': keyRecord(edA),
  'ma2._domainkey.two.mailauth.test': keyRecord(rsaA),
  'ma3._domainkey.three.mailauth.test': keyRecord(edB),
  'rt1._domainkey.route.test': keyRecord(rsaB),
  'rt2._domainkey.route.test': keyRecord(edB),
  'revoked._domainkey.one.mailauth.test': 'v=DKIM1; k=ed25519; p=',
  'wrongtype._domainkey.one.mailauth.test': keyRecord(rsaA),
  // a common mistake: the whole SubjectPublicKeyInfo in p= instead of the 32 raw bytes (RFC 8463 §4.2)
  'spki._domainkey.one.mailauth.test': `v=DKIM1; k=ed25519; p=${spki(edA).toString('base64')}`,
  // RFC 6376 §3.6.1: h= lists the hash algorithms the key may be used with
  'sha1only._domainkey.two.mailauth.test': `v=DKIM1; h=sha1; k=rsa; p=${spki(rsaA).toString('base64')}`,
};

const original = [
  'Authentication-Results: mx.one.mailauth.test; spf=pass smtp.mailfrom=sender.test;',
  '\tdkim=pass header.d=sender.test',
  'Authentication-Results: elsewhere.test; spf=fail',
  'From: =?utf-8?q?J=C3=B6rg?= <joerg@sender.test>',
  'To: list@one.mailauth.test',
  'Subject: Caf\u00e9 \u2014 na\u00efve',
  '\tfolded with a tab',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Message-ID: <interop@sender.test>',
  '',
  'Gr\u00fc\u00dfe.  Trailing spaces   ',
  '',
].join('\r\n');

interface Hop {
  domain: string;
  selector: string;
  pair: Pair;
  cv: string;
  i?: number;
}
/** One ARC set by mailauth's own sealer, prepended to the message. */
async function mailauthSeal(
  message: string,
  hop: Hop,
  signTime = new Date('2026-11-23T08:00:00Z'),
): Promise<string> {
  const headers = await sealMessage(Buffer.from(message), {
    signingDomain: hop.domain,
    selector: hop.selector,
    privateKey: pemOf(hop.pair),
    authResults: `${hop.domain}; arc=${hop.cv}`,
    cv: hop.cv,
    signTime,
    ...(hop.i === undefined ? {} : { i: hop.i }),
  } as Parameters<typeof sealMessage>[1]);
  expect(headers.length, `mailauth refused to seal ${hop.domain}`).toBeGreaterThan(0);
  return headers.toString() + message;
}

const hop1: Hop = { domain: 'one.mailauth.test', selector: 'ma1', pair: edA, cv: 'none' };
const hop2: Hop = { domain: 'two.mailauth.test', selector: 'ma2', pair: rsaA, cv: 'pass' };
const hop3: Hop = { domain: 'three.mailauth.test', selector: 'ma3', pair: edB, cv: 'pass' };

const zones = {
  ...testTld,
  ...Object.fromEntries(Object.entries(keys).map(([name, record]) => [name, { TXT: record }])),
  'servfail._domainkey.one.mailauth.test': { servfail: true },
  'silent._domainkey.one.mailauth.test': { timeout: true },
};

let mixed1: string;
let mixed2: string;
let mixed3: string;

beforeAll(async () => {
  mixed1 = await mailauthSeal(original, hop1);
  mixed2 = await mailauthSeal(mixed1, hop2);
  mixed3 = await mailauthSeal(mixed2, hop3);
});

/** The ARC set of instance `i` (its three fields, unfolded) as lines of `message`. */
function fieldsOf(message: string, i: number): string[] {
  const unfolded = message.slice(0, message.indexOf('\r\n\r\n')).replace(/\r\n[ \t]/g, ' ');
  return unfolded.split('\r\n').filter((line) => new RegExp(`^ARC-[A-Za-z-]+:\\s*i=${i};`).test(line));
}

describeEachDatabase('ARC interoperability', (database) => {
  const tool = toolTestApp({ database, zones });
  const post = (url: string, body: unknown) => tool.post(url, body);
  const validate = (record: string, domain = 'test') =>
    tool.data<ArcValidateResult>('/v1/arc/validate', { record, domain });
  const generate = (body: Record<string, unknown>) => tool.data<ArcGenerateResult>('/v1/arc/generate', body);
  const mailauthArc = (sealed: string) => mailauthArcVerify(sealed, tool.dns.address);

  // ---- chains sealed by dkimpy ----

  it.each([
    ['one', 1, [2048]],
    ['two', 2, [2048, 2048]],
    ['three', 3, [2048, 2048, 1024]],
  ] as const)('passes the %s-hop chain dkimpy sealed (dkimpy said pass)', async (name, hops, bits) => {
    expect(dkimpy.dkimpyVerdicts[name]).toBe('pass');
    const data = await validate(dkimpy.messages[name], 'dkimpy.test');
    expect(data.chain, JSON.stringify(data.sets)).toEqual({
      result: 'pass',
      reason: null,
      instances: hops,
      failedInstance: null,
      oldestPass: 0,
    });
    expect(data.valid).toBe(true);
    expect(data.errors).toEqual([]);
    expect(data.sets.map((set) => set.seal.keyBits)).toEqual(bits);
    expect(data.sets.map((set) => set.messageSignature.result)).toEqual(Array(hops).fill('pass'));
    // dkimpy writes h= with spaces around the colons
    expect(data.sets[0]!.messageSignature.signedHeaders).toEqual([
      'from',
      'to',
      'subject',
      'date',
      'message-id',
    ]);
    expect(data.sets[0]!.authenticationResults).toEqual({
      authservId: 'list.dkimpy.test',
      results: ['spf=pass smtp.mailfrom=sender.test'],
    });
    expect(data.sets.every((set) => set.withinDomain)).toBe(true);
  });

  it('passes a dkimpy chain pasted with LF line endings', async () => {
    const data = await validate(dkimpy.messages.three.replace(/\r\n/g, '\n'), 'dkimpy.test');
    expect(data.chain.result).toBe('pass');
  });

  it('passes a chain whose OLDER AMS a list rewrite broke (only the newest AMS counts, §5.2)', async () => {
    expect(dkimpy.dkimpyVerdicts.olderBroken).toBe('pass');
    const data = await validate(dkimpy.messages.olderBroken, 'dkimpy.test');
    expect(data.chain).toMatchObject({ result: 'pass', failedInstance: null, oldestPass: 2 });
    expect(data.sets[0]!.messageSignature.result).toBe('fail');
    expect(data.sets[1]!.messageSignature.result).toBe('pass');
    expect(data.sets.map((set) => set.seal.result)).toEqual(['pass', 'pass']);
    expect(data.diagnostics.find((d) => d.code === 'ARC_OLDER_AMS_FAILED')?.severity).toBe('info');
  });

  it('fails the dkimpy chain when the body changed after the newest seal', async () => {
    const data = await validate(dkimpy.messages.three.replace('Trailing', 'Changed'), 'dkimpy.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 3 });
    expect(data.chain.reason).toMatch(/i=3.*body hash did not verify/);
  });

  it('fails a 512-bit RSA seal as dkimpy does (RFC 8301 §3.2)', async () => {
    expect(dkimpy.dkimpyVerdicts.weak).toBe('fail');
    const data = await validate(dkimpy.messages.weak, 'dkimpy.test');
    expect(data.chain.result).toBe('fail');
    expect(data.sets[0]!.seal).toMatchObject({ result: 'fail', keyBits: 512 });
    expect(data.diagnostics.map((d) => d.code)).toContain('ARC_RSA_SHORT_KEY');
  });

  it('verifies the seals of a header-only paste of a dkimpy chain and asks for the body', async () => {
    const message = dkimpy.messages.three;
    const data = await validate(message.slice(0, message.indexOf('\r\n\r\n') + 2), 'dkimpy.test');
    expect(data.sets.map((set) => set.seal.result)).toEqual(['pass', 'pass', 'pass']);
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 3 });
    expect(data.diagnostics.map((d) => d.code)).toContain('ARC_NO_BODY');
  });

  // ---- chains sealed by mailauth: Ed25519 mixed with RSA ----

  it('passes 1, 2 and 3 hops of Ed25519 and RSA seals made by mailauth', async () => {
    for (const [message, algorithms] of [
      [mixed1, ['ed25519-sha256']],
      [mixed2, ['ed25519-sha256', 'rsa-sha256']],
      [mixed3, ['ed25519-sha256', 'rsa-sha256', 'ed25519-sha256']],
    ] as const) {
      expect((await mailauthArc(message)).status.result).toBe('pass');
      const data = await validate(message, 'mailauth.test');
      expect(data.chain, JSON.stringify(data.sets)).toMatchObject({ result: 'pass', oldestPass: 0 });
      expect(data.sets.map((set) => set.algorithm)).toEqual(algorithms);
      expect(data.sets.map((set) => set.seal.keyBits)).toEqual(
        algorithms.map((a) => (a === 'rsa-sha256' ? 2048 : 256)),
      );
    }
  });

  it('fails when the newest AMS is broken by a change to a signed header field', async () => {
    const data = await validate(
      mixed3.replace('Subject: Caf\u00e9', 'Subject: [list] Caf\u00e9'),
      'mailauth.test',
    );
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 3 });
    expect(data.chain.reason).toMatch(/ARC-Message-Signature \(i=3\)/);
    expect(data.sets[2]!.messageSignature).toMatchObject({ result: 'fail', bodyHashMatches: true });
  });

  it('warns about a seal dated in the future (RFC 6376 §3.5 MAY fail it, dkimpy does)', async () => {
    const future = await mailauthSeal(original, hop1, new Date(Date.now() + 86_400_000));
    const data = await validate(future, 'mailauth.test');
    expect(data.chain.result).toBe('pass');
    const codes = data.diagnostics.filter((d) => d.code === 'ARC_TIMESTAMP_FUTURE');
    expect(codes.map((d) => d.message.slice(0, 20))).toEqual([
      'The ARC-Seal of i=1 ',
      'The ARC-Message-Sign',
    ]);
    expect(data.warnings.some((w) => w.includes('in the future'))).toBe(true);
    // the fixed signing time of the other chains is in the past: no such warning
    expect((await validate(mixed1, 'mailauth.test')).diagnostics.map((d) => d.code)).not.toContain(
      'ARC_TIMESTAMP_FUTURE',
    );
  });

  it('ends the chain at a seal that says cv=fail', async () => {
    const failed = await mailauthSeal(mixed1, { ...hop2, cv: 'fail' });
    const data = await validate(failed, 'mailauth.test');
    expect(data.chain.result).toBe('fail');
    expect(data.chain.reason).toMatch(/cv=fail/);
    expect(data.valid).toBe(false);
  });

  it('fails a seal with the wrong cv for its instance (cv=none at i=2)', async () => {
    const wrong = await mailauthSeal(mixed1, { ...hop2, cv: 'none' });
    const data = await validate(wrong, 'mailauth.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.chain.reason).toMatch(/cv/);
  });

  it('fails a seal with cv=pass at i=1', async () => {
    const wrong = await mailauthSeal(original, { ...hop1, cv: 'pass' });
    const data = await validate(wrong, 'mailauth.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 1 });
  });

  it('fails an instance gap (sets 1 and 3)', async () => {
    const gap = await mailauthSeal(mixed1, { ...hop2, i: 3 });
    const data = await validate(gap, 'mailauth.test');
    expect(data.chain.result).toBe('fail');
    expect(data.chain.reason).toMatch(/i=2|instance/);
    expect(data.sets.map((set) => set.seal.result)).toEqual(['none', 'none']);
  });

  it('fails duplicate sets of one instance', async () => {
    const header = mixed2.slice(0, mixed2.indexOf('\r\n\r\n'));
    const set1 = fieldsOf(mixed2, 1);
    expect(set1).toHaveLength(3);
    const data = await validate(
      `${set1.join('\r\n')}\r\n${header}\r\n\r\n${mixed2.slice(header.length + 4)}`,
      'mailauth.test',
    );
    expect(data.chain.result).toBe('fail');
    expect(data.chain.reason).toMatch(/i=1/);
  });

  it('fails a revoked key (empty p=), a key of the wrong type and a missing key, with permerror', async () => {
    for (const selector of ['revoked', 'wrongtype', 'absent']) {
      const message = await mailauthSeal(original, { ...hop1, selector });
      const data = await validate(message, 'mailauth.test');
      expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 1 });
      expect(data.sets[0]!.seal.result, selector).toBe('permerror');
      expect(data.sets[0]!.seal.reason).toEqual(expect.any(String));
    }
  });

  it('does not pass an Ed25519 key published as a SubjectPublicKeyInfo (RFC 8463 §4.2)', async () => {
    // mailauth alone reads the wrapped key and passes; dkimpy and OpenARC need the 32 raw bytes
    const message = await mailauthSeal(mixed1, {
      ...hop2,
      pair: edA,
      selector: 'spki',
      domain: 'one.mailauth.test',
    });
    const data = await validate(message, 'mailauth.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.sets[1]!.seal.result).toBe('permerror');
    expect(data.sets[1]!.seal.reason).toMatch(/SubjectPublicKeyInfo.*RFC 8463 §4\.2/);
    expect(data.sets[1]!.messageSignature.result).toBe('permerror');
    const finding = data.diagnostics.find((d) => d.code === 'ARC_KEY_UNUSABLE');
    expect(finding?.message).toContain('spki._domainkey.one.mailauth.test');
    expect(finding?.fix).toContain(`p=${spki(edA).subarray(-32).toString('base64')}`);
  });

  it('fails a seal whose key record allows only sha1 (h=sha1) for rsa-sha256', async () => {
    const message = await mailauthSeal(mixed1, { ...hop2, selector: 'sha1only' });
    const data = await validate(message, 'mailauth.test');
    expect(data.chain).toMatchObject({ result: 'fail', failedInstance: 2 });
    expect(data.sets[1]!.seal.result).toBe('permerror');
  });

  it(
    'passes a real chain of 50 sets, refuses to seal a 51st and fails a pasted 51st',
    { timeout: 60_000 },
    async () => {
      let message = original;
      for (let i = 1; i <= 50; i++) {
        message = await mailauthSeal(message, i === 1 ? hop1 : { ...hop3, cv: 'pass' });
      }
      const data = await validate(message, 'mailauth.test');
      expect(data.chain, JSON.stringify(data.chain)).toMatchObject({ result: 'pass', instances: 50 });
      expect(data.sets.every((set) => set.seal.result === 'pass')).toBe(true);

      const refused = await post('/v1/arc/generate', {
        domain: 'route.test',
        selector: 'rt1',
        privateKey: pemOf(rsaB),
        message,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ success: false, code: 'ARC_CHAIN_FULL' });

      const fiftyFirst = fieldsOf(message, 50).map((line) => line.replace(/\bi=50;/, 'i=51;'));
      const data51 = await validate(`${fiftyFirst.join('\r\n')}\r\n${message}`, 'mailauth.test');
      expect(data51.chain.result).toBe('fail');
      expect(data51.chain.reason).toMatch(/more than 50/);
    },
  );

  it(
    "gives temperror when the key's servers answer SERVFAIL, and could-not-check when our resolver is silent",
    { timeout: 30_000 },
    async () => {
      const servfail = await validate(
        await mailauthSeal(original, { ...hop1, selector: 'servfail' }),
        'mailauth.test',
      );
      expect(servfail.valid).toBe(false);
      expect(servfail.sets[0]!.seal.result).toBe('temperror');
      expect(servfail.sets[0]!.seal.reason).toMatch(/servfail/);
      // the only verdicts of the chain hang on a lookup our resolver never answered (RFC 8617 §5.2: the
      // key could not be retrieved): the chain is not judged
      const silent = await post('/v1/arc/validate', {
        record: await mailauthSeal(original, { ...hop1, selector: 'silent' }),
        domain: 'mailauth.test',
      });
      expect(silent.statusCode).toBe(503);
      expect(silent.json()).toMatchObject({ success: false, code: 'RESOLVER_UNAVAILABLE' });
    },
  );

  it('reads ARC field names in any case, with space before the colon, after blank lines', async () => {
    const header = mixed2.slice(0, mixed2.indexOf('\r\n\r\n'));
    const renamed = header
      .replace(/^ARC-Seal:/gm, 'arc-seal :')
      .replace(/^ARC-Message-Signature:/gm, 'ARC-MESSAGE-SIGNATURE:')
      .replace(/^ARC-Authentication-Results:/gm, 'Arc-Authentication-Results:\t');
    const data = await validate(`\r\n  \r\n${renamed}${mixed2.slice(header.length)}`, 'mailauth.test');
    expect(data.chain, JSON.stringify(data.diagnostics)).toMatchObject({ result: 'pass', instances: 2 });
  });

  it('passes a chain whose ARC fields a relay refolded (relaxed canonicalization)', async () => {
    const header = mixed2.slice(0, mixed2.indexOf('\r\n\r\n'));
    // unfold every ARC field, then fold again after each ';' with a tab
    const refolded = header
      .replace(/\r\n[ \t]+/g, ' ')
      .split('\r\n')
      .map((line) => (/^ARC-/i.test(line) ? line.replace(/; /g, ';\r\n\t') : line))
      .join('\r\n');
    const data = await validate(refolded + mixed2.slice(header.length), 'mailauth.test');
    expect(data.chain.result).toBe('pass');
  });

  it('ignores ARC fields quoted in the body, when validating and when sealing', async () => {
    const quoted = `\r\n> ARC-Seal: i=7; cv=pass\r\nARC-Seal: i=9; a=rsa-sha256; cv=pass; d=x.test; s=x; b=AAAA\r\n`;
    const bodyQuotes = await mailauthSeal(`${original}${quoted}`, hop1);
    const data = await validate(bodyQuotes, 'mailauth.test');
    expect(data.chain, JSON.stringify(data.diagnostics)).toMatchObject({ result: 'pass', instances: 1 });
    const next = await generate({
      domain: 'route.test',
      selector: 'rt1',
      privateKey: pemOf(rsaB),
      message: bodyQuotes,
    });
    expect(next).toMatchObject({ instance: 2, cv: 'pass' });
  });

  it('echoes the domain normalised and says when no seal is in it', async () => {
    const data = await validate(mixed2, '  MailAuth.TEST. ');
    expect(data.domain).toBe('mailauth.test');
    expect(data.sets.map((set) => set.withinDomain)).toEqual([true, true]);
    const other = await validate(mixed2, 'example.org');
    expect(other.chain.result).toBe('pass');
    expect(other.diagnostics.map((d) => d.code)).toContain('ARC_DOMAIN_NOT_IN_CHAIN');
  });

  // ---- sealed by our route, verified by mailauth (and dkimpy when installed) ----

  it.each(['simple/simple', 'relaxed/relaxed', 'simple/relaxed', 'relaxed/simple'] as const)(
    'seals with %s and l=, which mailauth and our validator accept',
    async (canonicalization) => {
      const data = await generate({
        domain: 'route.test',
        selector: 'rt1',
        privateKey: pemOf(rsaB),
        authservId: 'mx.one.mailauth.test',
        canonicalization,
        bodyLength: 5,
        message: original,
      });
      const ams = data.arcMessageSignature.replace(/\r\n /g, ' ');
      expect(ams).toContain('l=5;');
      // written out even for simple/simple, the default: dkimpy reads a missing c= as relaxed/relaxed
      expect(ams).toContain(`; c=${canonicalization};`);
      expect(data.arcAuthenticationResults).toContain('dkim=pass header.d=sender.test');
      expect(data.arcAuthenticationResults).not.toContain('spf=fail');
      expect((await mailauthArc(data.sealedMessage)).status.result).toBe('pass');
      expect((await validate(data.sealedMessage, 'route.test')).chain.result).toBe('pass');
      // l= covers 5 octets: text added after them does not break the AMS
      const appended = `${data.sealedMessage}appended footer\r\n`;
      expect((await validate(appended, 'route.test')).chain.result).toBe('pass');
      if (hasDkimpy) expect(dkimpyVerify(data.sealedMessage, keys)).toMatchObject({ cv: 'pass' });
    },
  );

  it('seals over-signed and absent header fields (RFC 6376 §5.4.2) that both verifiers accept', async () => {
    const data = await generate({
      domain: 'route.test',
      selector: 'rt1',
      privateKey: pemOf(rsaB),
      headers: ['From', 'from', 'Subject', 'Reply-To', 'Message-ID'],
      message: original,
    });
    const ams = data.arcMessageSignature.replace(/\r\n /g, ' ');
    expect(ams).toContain('h=from:from:subject:reply-to:message-id;');
    expect((await mailauthArc(data.sealedMessage)).status.result).toBe('pass');
    expect((await validate(data.sealedMessage, 'route.test')).chain.result).toBe('pass');
    if (hasDkimpy) expect(dkimpyVerify(data.sealedMessage, keys)).toMatchObject({ cv: 'pass' });
    // the over-signed From: a second From added later breaks the signature
    const added = data.sealedMessage.replace('\r\nFrom:', '\r\nFrom: Mallory <m@evil.test>\r\nFrom:');
    expect((await validate(added, 'route.test')).chain.result).toBe('fail');
  });

  it('adds hops 2 and 3 (Ed25519, then RSA) on top of a mailauth chain', async () => {
    const second = await generate({
      domain: 'route.test',
      selector: 'rt2',
      algorithm: 'ed25519-sha256',
      privateKey: pemOf(edB),
      message: mixed1,
    });
    expect(second).toMatchObject({ instance: 2, cv: 'pass' });
    const third = await generate({
      domain: 'route.test',
      selector: 'rt1',
      privateKey: pemOf(rsaB),
      canonicalization: 'simple/simple',
      message: second.sealedMessage,
    });
    expect(third).toMatchObject({ instance: 3, cv: 'pass' });
    const verdict = await mailauthArc(third.sealedMessage);
    expect(verdict.status.result, JSON.stringify(verdict.status)).toBe('pass');
    expect(verdict.i).toBe(3);
    expect((await validate(third.sealedMessage)).chain).toMatchObject({ result: 'pass', instances: 3 });
    // (dkimpy 1.1.4 is left out here: its ARC code knows no ed25519-sha256)
  });

  it('seals a dkimpy chain as its next hop with cv=pass', async () => {
    const next = await generate({
      domain: 'route.test',
      selector: 'rt1',
      privateKey: pemOf(rsaB),
      message: dkimpy.messages.three,
    });
    expect(next).toMatchObject({ instance: 4, cv: 'pass' });
    expect((await mailauthArc(next.sealedMessage)).status.result).toBe('pass');
    if (hasDkimpy) expect(dkimpyVerify(next.sealedMessage, keys)).toMatchObject({ cv: 'pass' });
  });

  it('seals a header-only message (empty body) that mailauth verifies', async () => {
    const headerOnly = original.slice(0, original.indexOf('\r\n\r\n') + 2);
    const data = await generate({
      domain: 'route.test',
      selector: 'rt1',
      privateKey: pemOf(rsaB),
      message: headerOnly,
    });
    expect((await mailauthArc(data.sealedMessage)).status.result).toBe('pass');
    expect((await validate(data.sealedMessage, 'route.test')).chain.result).toBe('pass');
  });

  // ---- the API surface ----

  it.each([
    ['/v1/arc/validate', { record: '', domain: '' }, 'Domain and ARC headers are required'],
    ['/v1/arc/validate', { record: mixed1, domain: '\t' }, 'Domain and ARC headers are required'],
    ['/v1/arc/generate', { domain: '', selector: '', message: original }, 'Domain and selector are required'],
    [
      '/v1/arc/generate',
      { domain: 'route.test', selector: 'rt1', message: '' },
      'Message is required to seal',
    ],
  ])('%s answers %j with the spec text', async (url, body, error) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error });
  });

  it.each(['not a domain', 'exa_mple..test', '-bad.test', 'a'.repeat(64) + '.test'])(
    'refuses %j as the domain to validate for, as the generator does',
    async (domain) => {
      const response = await post('/v1/arc/validate', { record: mixed1, domain });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        code: 'VALIDATION_ERROR',
        error: `'${domain}' is not a valid domain name`,
      });
    },
  );

  it('answers odd input with a 4xx envelope or a result, never a 5xx', async () => {
    const records = [
      'ARC-Seal: i=1',
      'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=one.mailauth.test; s=ma1; b=!!!',
      'ARC-Seal: i=99999999999999999999; cv=none',
      `ARC-Seal: i=1; a=ed25519-sha256; cv=none; d=${'a'.repeat(300)}.test; s=x; b=AAAA\r\n\r\n`,
      '\u0000\u0001ARC-Seal:\u00ff',
      mixed3.replace(/b=[A-Za-z0-9+/=\r\n ]+/, 'b='),
      mixed3.replace(/\r\n/g, '\r'),
    ];
    for (const record of records) {
      const response = await post('/v1/arc/validate', { record, domain: 'mailauth.test' });
      expect(response.statusCode, `${record.slice(0, 40)}: ${response.body}`).toBeLessThan(500);
    }
    for (const message of [
      'no header here',
      'From: a@b.test',
      mixed3.replace(/\r\n/g, '\r'),
      '\u0000: x\r\n\r\n',
    ]) {
      const response = await post('/v1/arc/generate', { domain: 'route.test', selector: 'rt1', message });
      expect(response.statusCode, `${message.slice(0, 40)}: ${response.body}`).toBeLessThan(500);
      if (response.statusCode >= 400)
        expect(response.json()).toMatchObject({ success: false, code: expect.any(String) });
    }
  });

  it('documents both routes with their body and response schemas in /docs/json', async () => {
    const response = await tool.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, Record<string, unknown>>> })
      .paths;
    for (const route of ['/v1/arc/validate', '/v1/arc/generate']) {
      const operation = paths[route]?.post as
        | {
            requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
            responses?: object;
          }
        | undefined;
      expect(operation, route).toBeDefined();
      const properties = operation!.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      expect(Object.keys(properties)).toEqual(
        expect.arrayContaining(
          route.endsWith('validate') ? ['record', 'domain'] : ['domain', 'selector', 'message'],
        ),
      );
      expect(Object.keys(operation!.responses ?? {})).toEqual(expect.arrayContaining(['200']));
    }
  });
});
