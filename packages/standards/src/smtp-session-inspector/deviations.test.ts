import { describe, expect, it } from 'vitest';
import { SLOW_BANNER_MS, smtpMxDiagnostics, smtpSessionDeviations } from './deviations.ts';
import { smtpInspectBody, type SmtpSessionView, type SmtpStepView } from './schema.ts';

function step(kind: SmtpStepView['kind'], fields: Partial<SmtpStepView> = {}): SmtpStepView {
  return {
    kind,
    sent: null,
    reply: [],
    code: null,
    startedMs: 0,
    durationMs: 5,
    ok: true,
    error: null,
    ...fields,
  };
}

const tls = {
  version: 'TLSv1.3',
  cipher: 'TLS_AES_256_GCM_SHA384',
  servername: 'mx.example.test',
  chain: [
    {
      subject: 'CN=mx.example.test',
      issuer: 'CN=Lab CA',
      notBefore: '2026-01-01T00:00:00.000Z',
      notAfter: '2027-01-01T00:00:00.000Z',
      dnsNames: ['mx.example.test'],
      pem: '',
    },
  ],
  trusted: true,
  trustError: null,
  nameMatches: true,
  expired: false,
};

function session(fields: Partial<SmtpSessionView> = {}): SmtpSessionView {
  return {
    host: 'mx.example.test',
    port: 25,
    address: '192.0.2.1',
    mode: 'starttls',
    steps: [
      step('connect'),
      step('banner', { code: 220, reply: ['220 mx.example.test ESMTP'] }),
      step('ehlo', { code: 250, sent: 'EHLO rfckit.example' }),
      step('starttls', { code: 220, sent: 'STARTTLS' }),
      step('tls'),
      step('ehlo-tls', { code: 250, sent: 'EHLO rfckit.example' }),
      step('quit', { code: 221, sent: 'QUIT' }),
    ],
    extensions: ['PIPELINING', 'SIZE 10240000', 'STARTTLS'],
    extensionsAfterTls: ['PIPELINING', 'SIZE 10240000'],
    starttlsAdvertised: true,
    tls,
    completed: true,
    ...fields,
  };
}

const codes = (s: SmtpSessionView) => smtpSessionDeviations(s).map((d) => `${d.severity}:${d.code}`);

describe('smtpSessionDeviations', () => {
  it('finds nothing in a clean session', () => {
    expect(smtpSessionDeviations(session())).toEqual([]);
  });

  it('judges the banner: 4xx temporary, 554 refused, silence with the limit, slow', () => {
    const banner = (fields: Partial<SmtpStepView>) =>
      session({ steps: [step('connect'), step('banner', { ok: false, ...fields })], completed: false });
    expect(codes(banner({ code: 421, reply: ['421 try later'] }))).toEqual(['warning:SMTP_BANNER_TEMPORARY']);
    expect(codes(banner({ code: 554 }))).toEqual(['error:SMTP_BANNER_REJECTED']);
    expect(codes(banner({ code: 250 }))).toEqual(['error:SMTP_BANNER_NOT_220']);
    const silent = smtpSessionDeviations(banner({ error: 'no banner within 30 s' }));
    expect(silent[0]).toMatchObject({ code: 'SMTP_NO_BANNER', rfc: 'RFC 5321 §4.5.3.2.1' });
    expect(silent[0]?.message).toContain('no banner within 30 s');
    const slow = session();
    slow.steps[1] = step('banner', { code: 220, durationMs: SLOW_BANNER_MS + 1 });
    expect(codes(slow)).toEqual(['info:SMTP_SLOW_BANNER']);
  });

  it('says HELO was not tried when EHLO is refused', () => {
    const refused = session({
      steps: [
        step('connect'),
        step('banner', { code: 220 }),
        step('ehlo', { ok: false, code: 502 }),
        step('quit', { code: 221 }),
      ],
      extensions: [],
      starttlsAdvertised: false,
      extensionsAfterTls: null,
      tls: null,
    });
    const [finding] = smtpSessionDeviations(refused);
    expect(finding?.code).toBe('SMTP_EHLO_REJECTED');
    expect(finding?.message).toContain('did not fall back to HELO');
  });

  it('weighs a missing STARTTLS by port: a warning on 25, an error on 587', () => {
    const plain = {
      steps: [
        step('connect'),
        step('banner', { code: 220 }),
        step('ehlo', { code: 250 }),
        step('quit', { code: 221 }),
      ],
      extensions: ['PIPELINING'],
      extensionsAfterTls: null,
      starttlsAdvertised: false,
      tls: null,
    };
    expect(codes(session(plain))).toEqual(['warning:SMTP_STARTTLS_MISSING']);
    expect(codes(session({ ...plain, port: 587 }))).toEqual(['error:SMTP_STARTTLS_MISSING']);
  });

  it('flags extensions lost, gained and STARTTLS offered again after TLS (RFC 3207 §4.2)', () => {
    const changed = session({ extensionsAfterTls: ['PIPELINING', 'AUTH PLAIN', 'STARTTLS'] });
    expect(codes(changed)).toEqual([
      'error:SMTP_STARTTLS_AFTER_TLS',
      'warning:SMTP_EXTENSIONS_LOST',
      'info:SMTP_EXTENSIONS_GAINED',
    ]);
    expect(smtpSessionDeviations(changed)[2]?.message).toContain('AUTH only over TLS is expected');
  });

  it('weighs certificate problems by port: information on 25, errors on 465 and 587', () => {
    const bad = {
      ...tls,
      trusted: false,
      trustError: 'the certificate is self-signed',
      nameMatches: false,
      expired: true,
    };
    expect(codes(session({ tls: bad }))).toEqual([
      'info:SMTP_CERTIFICATE_UNTRUSTED',
      'info:SMTP_CERTIFICATE_NAME_MISMATCH',
      'info:SMTP_CERTIFICATE_EXPIRED',
    ]);
    expect(codes(session({ tls: bad, port: 465, mode: 'implicit', extensionsAfterTls: null }))).toEqual([
      'error:SMTP_CERTIFICATE_UNTRUSTED',
      'error:SMTP_CERTIFICATE_NAME_MISMATCH',
      'error:SMTP_CERTIFICATE_EXPIRED',
    ]);
  });

  it('flags TLS 1.0 and 1.1 (RFC 8996)', () => {
    expect(codes(session({ tls: { ...tls, version: 'TLSv1.1' } }))).toEqual([
      'error:SMTP_TLS_DEPRECATED_VERSION',
    ]);
  });

  it('every finding has a section, and every problem a fix', () => {
    const findings = smtpSessionDeviations(
      session({ tls: { ...tls, trusted: false, nameMatches: false }, extensionsAfterTls: ['STARTTLS'] }),
    );
    for (const finding of findings) {
      expect(finding.rfc).toMatch(/^RFC \d+/);
      if (finding.severity !== 'info' || finding.code.startsWith('SMTP_CERTIFICATE'))
        expect(finding.fix).toBeTruthy();
    }
  });
});

describe('smtpMxDiagnostics', () => {
  it('reports an alias, a host without addresses and hosts left out', () => {
    const findings = smtpMxDiagnostics({
      domain: 'example.test',
      nullMx: false,
      dnsError: null,
      omittedHosts: 2,
      hosts: [
        {
          preference: 10,
          host: 'mail.example.test',
          implicit: false,
          addresses: ['192.0.2.1'],
          cnameTarget: 'real.example.test',
          problem: null,
        },
        {
          preference: 20,
          host: 'gone.example.test',
          implicit: false,
          addresses: [],
          cnameTarget: null,
          problem: 'gone.example.test does not exist (NXDOMAIN)',
        },
      ],
    });
    expect(findings.map((d) => d.code)).toEqual([
      'SMTP_MX_IS_CNAME',
      'SMTP_MX_NO_ADDRESS',
      'SMTP_MX_TOO_MANY',
    ]);
  });
});

describe('smtpInspectBody', () => {
  it('takes ports 25, 587 and 465 only, 25 by default', () => {
    expect(smtpInspectBody.parse({ host: 'mx.example.test' }).port).toBe(25);
    expect(smtpInspectBody.parse({ host: '[2001:db8::1]', port: 465 }).host).toBe('2001:db8::1');
    expect(smtpInspectBody.safeParse({ host: 'mx.example.test', port: 2525 }).error?.issues[0]?.message).toBe(
      'Port must be 25, 587 or 465',
    );
  });
});
