// The web sites of the e2e network lab. e2e/serve.ts serves them over http and https (a test CA
// the server is told to trust) on loopback, and the server reaches them by name through
// OUTBOUND_CONNECT_TO, as it would reach real sites. Journeys analyse them from the browser.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DnsZones, LabRequest, RouteSpec, SiteSpec } from '@rfckit/testlab';

/** What a site that redirects every http:// request answers there. */
const toHttps = (request: LabRequest): RouteSpec => ({
  status: 301,
  redirect: `https://${request.host}${request.url}`,
});

const strictPage: RouteSpec = {
  headers: [
    ['Content-Type', 'text/html; charset=utf-8'],
    [
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ],
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains; preload'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Embedder-Policy', 'require-corp'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
    ['Set-Cookie', '__Host-session=4f1c; Path=/; Secure; HttpOnly; SameSite=Strict'],
  ],
  body:
    '<!doctype html><html><head><title>Strict</title>' +
    '<script src="/app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>' +
    '</head><body>Hello</body></html>',
};

/** A security.txt for `host` (at its /.well-known/ URL) whose Expires is `days` from the server's start. */
function securityTxtFor(host: string, days: number): RouteSpec {
  const expires = new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    body: [
      `Canonical: https://${host}/.well-known/security.txt`,
      `Contact: https://${host}/report`,
      `Expires: ${expires}`,
      '',
    ].join('\n'),
  };
}

export const labSites: Record<string, SiteSpec> = {
  // security.txt: a file with nothing wrong in it, and one that expired a month ago
  'securitytxt-good.example.test': {
    routes: { '/.well-known/security.txt': securityTxtFor('securitytxt-good.example.test', 90) },
  },
  'securitytxt-expired.example.test': {
    routes: { '/.well-known/security.txt': securityTxtFor('securitytxt-expired.example.test', -30) },
  },
  // every header set well: A+ (score 160). http:// goes to https, and / to /en/.
  'strict.example.test': {
    routes: {
      '/': (request) => (request.scheme === 'http' ? toHttps(request) : { status: 301, redirect: '/en/' }),
      '/en/': (request) => (request.scheme === 'http' ? toHttps(request) : strictPage),
    },
  },
  // no security header and no redirect to https: F (score 10)
  'bare.example.test': {
    routes: {
      '*': {
        headers: [['Content-Type', 'text/html; charset=utf-8']],
        body: '<!doctype html><html><head><title>Bare</title></head><body>Hello</body></html>',
      },
    },
  },
};

/** Names the lab DNS answers with addresses the server must refuse to reach (OUTBOUND_ALLOW is 127/8). */
/**
 * A site whose address is the lab's but where nothing listens on 443 or 80 (e2e/serve.ts maps both
 * to a closed loopback port): the site is down, so the tools could not check it.
 */
export const unreachableSite = 'securitytxt-down.example.test';

export const labPrivateNames: Record<string, string> = {
  'intranet.example.test': '10.0.0.1',
};

/**
 * DKIM key records of `dkim.example.test`: the Ed25519 key of RFC 8463 Appendix A.2 under
 * `brisbane`, and a 2048-bit RSA key made at start under `google` (one of the common selectors
 * that "Find selectors" probes), long enough to be served as two character-strings.
 */
export function dkimZones(): DnsZones {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
  return {
    'brisbane._domainkey.dkim.example.test': {
      TXT: 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
    },
    'google._domainkey.dkim.example.test': { TXT: `v=DKIM1; k=rsa; p=${rsa}` },
  };
}

/** The domain and selector of the lab's ARC sealing key. */
export const arcLabDomain = 'arc.example.test';
export const arcLabSelector = 'arc';

/** Where e2e/serve.ts leaves the lab's ARC private key (PKCS#8 PEM) in the e2e data dir. */
export function arcLabKeyFile(dataDir: string): string {
  return path.join(dataDir, 'arc-lab-key.pem');
}

/**
 * The ARC sealing key of `arc.example.test`: a 2048-bit RSA key made at start, its public key at
 * `arc._domainkey.arc.example.test`. The journey that seals with it runs in the Playwright process,
 * not in serve.ts's, so the private key is written to `arcLabKeyFile(dataDir)` for it to read.
 */
export function arcZones(dataDir: string): DnsZones {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(arcLabKeyFile(dataDir), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return { [`${arcLabSelector}._domainkey.${arcLabDomain}`]: { TXT: `v=DKIM1; k=rsa; p=${p}` } };
}

/**
 * SPF records of the lab. `spf-over.example.test` includes four records that each include two
 * more: 12 lookups, past the limit of 10 (RFC 7208 §4.6.4). `spf-pass.example.test` authorises
 * 198.51.100.0/24 through an include, with an exp= text for a fail.
 */
export const spfZones: DnsZones = {
  // the lab never answers for it: to us, our resolver is silent (we could not check)
  'spf-silent.example.test': { timeout: true },
  // RFC 7208 §6.1: a redirect= to a domain without an SPF record is a permerror
  'spf-broken.example.test': { TXT: 'v=spf1 redirect=spf-nowhere.example.test' },
  'spf-over.example.test': {
    TXT: `v=spf1 ip4:192.0.2.1 ${[1, 2, 3, 4].map((i) => `include:i${i}.spf-over.example.test`).join(' ')} -all`,
  },
  'spf-pass.example.test': {
    TXT: 'v=spf1 include:_spf.spf-pass.example.test exp=why.spf-pass.example.test -all',
  },
  '_spf.spf-pass.example.test': { TXT: 'v=spf1 ip4:198.51.100.0/24 -all' },
  'why.spf-pass.example.test': { TXT: '%{i} may not send mail for %{d}' },
};
for (const i of [1, 2, 3, 4]) {
  spfZones[`i${i}.spf-over.example.test`] = {
    TXT: `v=spf1 include:n${i}a.spf-over.example.test include:n${i}b.spf-over.example.test -all`,
  };
  spfZones[`n${i}a.spf-over.example.test`] = { TXT: `v=spf1 ip4:203.0.113.${i * 2} -all` };
  spfZones[`n${i}b.spf-over.example.test`] = { TXT: `v=spf1 ip4:203.0.113.${i * 2 + 1} -all` };
}

/**
 * TLS servers of the lab, by name (e2e/serve.ts starts them with the lab CA): a current Node
 * server (TLS 1.2 and 1.3), and a scripted old one (TLS 1.0 and 1.2, RSA key exchange with
 * AES-CBC and 3DES, no fallback SCSV) whose grade is capped, and a scripted broken one (SSL 3.0
 * only, with an export suite) that several caps put at F, a scripted one that stalls after its
 * ServerHello, so that no certificate is read and it cannot be graded, and a Node server with an
 * ECDSA and an RSA certificate.
 */
export const labTlsHosts = {
  current: 'tls-current.example.test',
  old: 'tls-old.example.test',
  broken: 'tls-broken.example.test',
  stalled: 'tls-stalled.example.test',
  dual: 'tls-dual.example.test',
} as const;

/**
 * Mail domains of the signed lab zone secure.test for the DANE live check (e2e/serve.ts signs their
 * records in and serves both MX hosts from one STARTTLS SMTP server): `pass` publishes 3 1 1 of that
 * server's key, `fail` 3 1 1 of another key.
 */
export const labDaneDomains = { pass: 'dane-pass.secure.test', fail: 'dane-fail.secure.test' } as const;

/** The MX host of a lab DANE domain. */
export const labDaneMx = (domain: string) => `mx-${domain}`;

/** The records of labDaneDomains, for buildDnssecLab's extraRecords: SHA-256 digests of the two SPKIs in hex. */
export function labDaneRecords(serverKey: string, otherKey: string): Record<string, string[]> {
  const records = (domain: string, key: string) => {
    const mx = labDaneMx(domain);
    return [
      `${domain}. 300 IN MX 10 ${mx}.`,
      `${mx}. 300 IN A 127.0.0.1`,
      `_25._tcp.${mx}. 300 IN TLSA 3 1 1 ${key}`,
    ];
  };
  return {
    'secure.test': [...records(labDaneDomains.pass, serverKey), ...records(labDaneDomains.fail, otherKey)],
  };
}

/** The SMTP session inspector's lab mail domain: mx1 offers STARTTLS, mx2 answers it 454. */
export const labInspectorDomain = 'mail-inspect.example.test';
export const labInspectorMx = {
  good: `mx1.${labInspectorDomain}`,
  refusing: `mx2.${labInspectorDomain}`,
} as const;
export const inspectorZones: DnsZones = {
  [labInspectorDomain]: {
    MX: [
      { preference: 10, exchange: labInspectorMx.good },
      { preference: 20, exchange: labInspectorMx.refusing },
    ],
  },
  [labInspectorMx.good]: { A: '127.0.0.1' },
  [labInspectorMx.refusing]: { A: '127.0.0.1' },
};
