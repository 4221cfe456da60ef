// The scanner's vulnerability facts, extensions and error handling against lab servers built
// to have (or not have) each weakness: the scripted server answers what no current library
// serves (SSL 2.0, SSL 3.0, export, NULL, RC4, a Heartbleed bug); Node's servers are the clean
// and the certificate cases. Expected values are the servers' configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IssuedCertificate,
  type LabTlsServer,
  startNodeTlsServer,
  startPlainServer,
  startScriptedTlsServer,
  startStarttlsSmtpServer,
} from '@rfckit/testlab';
import {
  type TlsScanProgress,
  type TlsScanReport,
  type VulnerabilityId,
  ssl2CipherKinds,
} from '@rfckit/standards';
import { NetError } from '../src/net/errors.ts';
import { scanTls } from '../src/tls/scan.ts';
import { closedPort } from './helpers/lab-fixtures.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

let lab: TlsLab;
let rsa: IssuedCertificate;
function scan(server: LabTlsServer, options: Parameters<typeof scanTls>[2] = {}): Promise<TlsScanReport> {
  return scanTls(
    lab.session(server.port),
    { host: LAB_TLS_HOST, port: 443 },
    { timeoutMs: 2_000, ...options },
  );
}

function status(report: TlsScanReport, id: VulnerabilityId): string | undefined {
  return report.vulnerabilities.find((vulnerability) => vulnerability.id === id)?.status;
}

function suiteNames(report: TlsScanReport, version: string): string[] {
  return report.versions.find((scan) => scan.version === version)?.suites.map((suite) => suite.name) ?? [];
}

beforeAll(async () => {
  lab = await createTlsLab();
  rsa = await lab.issue({ keyType: 'rsa-2048' });
});

afterAll(async () => {
  await lab.close();
});

describe('a server with every old weakness (scripted)', () => {
  let report: TlsScanReport;
  const progress: TlsScanProgress[] = [];

  beforeAll(async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['SSLv3', 'TLSv1.0'],
        // server order: RC4, NULL, export RSA, anonymous DH, export DHE, 3DES, AES-CBC
        suites: [0x0005, 0x0001, 0x0003, 0x0018, 0x0014, 0x000a, 0x002f],
        ssl2Kinds: [
          ssl2CipherKinds.SSL_CK_RC4_128_WITH_MD5,
          ssl2CipherKinds.SSL_CK_DES_192_EDE3_CBC_WITH_MD5,
        ],
        certificate: rsa,
        heartbeat: 'vulnerable',
        ccsInjection: 'vulnerable',
        compression: true,
        secureRenegotiation: false,
        fallbackScsv: false,
      }),
    );
    report = await scan(server, { onProgress: (event) => progress.push(event) });
  });

  it('finds SSL 2.0 with the cipher kinds of its SERVER-HELLO, SSL 3.0 and TLS 1.0 with every suite, in server order', () => {
    expect(report.versions.filter((version) => version.supported).map((version) => version.version)).toEqual([
      'SSLv2',
      'SSLv3',
      'TLSv1.0',
    ]);
    expect(suiteNames(report, 'SSLv2')).toEqual([
      'SSL_CK_RC4_128_WITH_MD5',
      'SSL_CK_DES_192_EDE3_CBC_WITH_MD5',
    ]);
    const expected = [
      'TLS_RSA_WITH_RC4_128_SHA',
      'TLS_RSA_WITH_NULL_MD5',
      'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
      'TLS_DH_anon_WITH_RC4_128_MD5',
      'TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA',
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      'TLS_RSA_WITH_AES_128_CBC_SHA',
    ];
    expect(suiteNames(report, 'SSLv3')).toEqual(expected);
    expect(suiteNames(report, 'TLSv1.0')).toEqual(expected);
    expect(report.versions.find((version) => version.version === 'TLSv1.0')?.preference).toBe('server');
  });

  it.each<VulnerabilityId>([
    'sslv2-drown',
    'sslv3-poodle',
    'tls10-beast',
    'sweet32',
    'rc4',
    'freak',
    'logjam',
    'null-cipher',
    'anonymous',
    'crime',
    'heartbleed',
    'ccs-injection',
    'insecure-renegotiation',
    'no-fallback-scsv',
  ])('reports %s as vulnerable, with evidence, references and a fix', (id) => {
    const finding = report.vulnerabilities.find((vulnerability) => vulnerability.id === id);
    expect(finding?.status).toBe('vulnerable');
    expect(finding?.evidence.length).toBeGreaterThan(10);
    expect(finding?.references.some((reference) => /^(CVE-\d{4}-\d+|RFC \d+)/.test(reference))).toBe(true);
    expect(finding?.fix.length).toBeGreaterThan(20);
  });

  it('reads the export key sizes and DH primes from ServerKeyExchange', () => {
    expect(report.groups.dhPrimeBits).toEqual([512, 2048]);
    const tls10 = report.versions.find((version) => version.version === 'TLSv1.0');
    expect(
      tls10?.suites.find((suite) => suite.name === 'TLS_RSA_EXPORT_WITH_RC4_40_MD5')?.keyExchange,
    ).toEqual({
      rsaExportBits: 512,
    });
  });

  it('falls back to the probe chain when Node cannot handshake, and says trust is unknown', () => {
    expect(report.certificate?.source).toBe('probe');
    expect(report.certificate?.chain[0]?.subjectAltNames).toEqual([`DNS:${LAB_TLS_HOST}`]);
    expect(report.certificate?.nameMatches).toBe(true);
    expect(report.notes.some((note) => note.startsWith('Reading the certificate: '))).toBe(true);
  });

  it('reports progress up to every planned probe done', () => {
    const last = progress.at(-1);
    expect(last?.phase).toBe('done');
    expect(last?.done).toBe(last?.total);
    expect(progress.some((event) => event.phase === 'suites' && event.version === 'SSLv3')).toBe(true);
    expect(report.stats.connections).toBeGreaterThan(10);
  });
});

describe('a current server (Node, TLS 1.2 and 1.3)', () => {
  let report: TlsScanReport;

  beforeAll(async () => {
    const server = await lab.started(
      startNodeTlsServer({
        certificate: rsa,
        minVersion: 'TLSv1.2',
        alpn: ['h2', 'http/1.1'],
        ocspResponse: Uint8Array.from([0x30, 0x03, 0x0a, 0x01, 0x00]),
      }),
    );
    report = await scan(server);
  });

  it('has none of the weaknesses', () => {
    for (const vulnerability of report.vulnerabilities)
      expect([vulnerability.id, vulnerability.status]).toEqual([vulnerability.id, 'ok']);
  });

  it('reports its extensions and certificate', () => {
    expect(report.features).toMatchObject({
      alpn: 'h2',
      secureRenegotiation: 'yes',
      fallbackScsv: 'yes',
      compression: 'no',
      heartbeat: 'no',
      extendedMasterSecret: 'yes',
      ocspStapling: 'yes',
      sessionTickets: 'yes',
    });
    expect(report.certificate).toMatchObject({
      source: 'handshake',
      trusted: true,
      nameMatches: true,
      expired: false,
    });
    expect(report.certificate?.chain[0]).toMatchObject({ keyType: 'rsa', keyBits: 2048, sctCount: 0 });
    expect(report.groups.tls12).toContain('x25519');
    expect(report.groups.tls13).toContain('x25519');
    // an RSA key signs with RSA schemes only, never ECDSA or EdDSA ones
    expect(report.signatureAlgorithms).toEqual(
      expect.arrayContaining(['rsa_pss_rsae_sha256', 'rsa_pkcs1_sha256']),
    );
    expect(report.signatureAlgorithms?.every((scheme) => /^rsa_/.test(scheme))).toBe(true);
    expect(report.incomplete).toBe(false);
  });
});

describe('a TLS 1.3-only server', () => {
  it('reports session tickets from the NewSessionTicket after the handshake, and no legacy features', async () => {
    const server = await lab.started(startNodeTlsServer({ certificate: rsa, minVersion: 'TLSv1.3' }));
    const report = await scan(server);
    expect(report.features).toMatchObject({
      sessionTickets: 'yes',
      secureRenegotiation: 'not-applicable',
      compression: 'not-applicable',
      fallbackScsv: 'not-applicable',
    });
    expect(report.vulnerabilities.every((vulnerability) => vulnerability.status === 'ok')).toBe(true);
  });
});

describe('certificate problems', () => {
  it.each([
    ['expired', { notAfter: new Date(Date.now() - 86_400_000) }, /expired/],
    [
      'for another name',
      { names: ['other.example.test'] },
      /does not cover the host name \(it names DNS:other\.example\.test\)/,
    ],
    ['self-signed', { selfSigned: true }, /self-signed/],
    ['an RSA key of 1024 bits', { keyType: 'rsa-1024' as const }, /RSA key has only 1024 bits/],
  ])('finds a certificate %s', async (_name, issue, message) => {
    const certificate = await lab.issue(issue);
    const server = await lab.started(
      startNodeTlsServer({ certificate, minVersion: 'TLSv1.2', ciphers: 'DEFAULT@SECLEVEL=0' }),
    );
    const report = await scan(server);
    const finding = report.vulnerabilities.find((vulnerability) => vulnerability.id === 'certificate');
    expect(finding?.status).toBe('vulnerable');
    expect(finding?.evidence).toMatch(message);
  });
});

describe('Heartbleed probe on a patched heartbeat', () => {
  it('negotiates heartbeat but finds no leak', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f, 0x009c],
        certificate: rsa,
        heartbeat: 'patched',
      }),
    );
    const report = await scan(server);
    expect(report.features.heartbeat).toBe('yes');
    expect(status(report, 'heartbleed')).toBe('ok');
    expect(status(report, 'logjam')).toBe('ok');
  });

  it('flags a DH prime under 1024 bits as Logjam', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0x009e, 0x0033],
        certificate: rsa,
        dhBits: 768,
      }),
    );
    const report = await scan(server);
    expect(report.groups.dhPrimeBits).toEqual([768]);
    expect(status(report, 'logjam')).toBe('vulnerable');
  });
});

describe('connections', () => {
  it('never opens more than maxConnections at once, and counts every one', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
        suites: [0xc02f, 0xc013, 0x009c, 0x002f, 0x0035, 0x000a],
        certificate: rsa,
      }),
    );
    // the real probe client, watched: how many of its connections are open at any moment
    const session = lab.session(server.port);
    const connect = session.probe.connect.bind(session.probe);
    let open = 0;
    let peak = 0;
    session.probe.connect = async (target, options) => {
      const connection = await connect(target, options);
      open++;
      peak = Math.max(peak, open);
      const close = connection.close.bind(connection);
      let closed = false;
      connection.close = () => {
        if (!closed) open--;
        closed = true;
        close();
      };
      return connection;
    };
    const report = await scanTls(
      session,
      { host: LAB_TLS_HOST, port: 443 },
      { timeoutMs: 2_000, maxConnections: 3 },
    );
    expect(suiteNames(report, 'TLSv1.2')).toHaveLength(6);
    expect(peak).toBe(3);
    expect(report.stats.connections).toBe(server.stats.connections);
  });

  it('reads a server that closes on a hello with no shared suite as refusing it', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc030, 0x009d],
        certificate: rsa,
        closeOnNoSharedSuite: true,
      }),
    );
    const report = await scan(server);
    expect(suiteNames(report, 'TLSv1.2')).toEqual([
      'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      'TLS_RSA_WITH_AES_256_GCM_SHA384',
    ]);
    expect(report.versions.find((version) => version.version === 'TLSv1.3')?.refusal).toBe(
      'connection closed',
    );
  });
});

describe('the 256-511-byte ClientHello bug', () => {
  it('is stepped around by padding (RFC 7685 §4): bundles of up to 128 suites (about 480 bytes unpadded) still get answers', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc030, 0xc02f],
        certificate: rsa,
        hangOn256To511: true,
      }),
    );
    const report = await scan(server, { timeoutMs: 1_000 });
    const tls12 = report.versions.find((version) => version.version === 'TLSv1.2');
    expect(tls12?.suites.map((suite) => suite.name)).toEqual([
      'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    ]);
    expect(tls12?.preference).toBe('server');
    // SSL 3.0 hellos (no extensions, so no padding) are kept under 256 bytes: answered too
    expect(report.versions.find((version) => version.version === 'SSLv3')?.tested).toBeUndefined();
    // this server sends no ServerKeyExchange with its ECDHE suites: its groups cannot be read
    expect(report.groups.unanswered).toEqual(['tls12']);
    expect(report.notes).toEqual([
      expect.stringMatching(/^Reading the certificate: /),
      'The key exchange groups of TLS 1.2 and below were not all learnt: the server did not show the group it chose for a probe within 1000 ms.',
    ]);
  });
});

describe('STARTTLS', () => {
  it('scans an SMTP server after EHLO and STARTTLS (RFC 3207)', async () => {
    const server = await lab.started(startStarttlsSmtpServer({ certificate: rsa }));
    const report = await scanTls(
      lab.session(server.port),
      { host: LAB_TLS_HOST, port: 25, starttls: 'smtp' },
      { timeoutMs: 2_000 },
    );
    expect(report.starttls).toBe('smtp');
    expect(report.versions.find((version) => version.version === 'TLSv1.3')?.supported).toBe(true);
    expect(report.certificate?.trusted).toBe(true);
  });

  it('says so when the SMTP server offers no STARTTLS', async () => {
    const server = await lab.started(startStarttlsSmtpServer({ certificate: rsa, withoutStarttls: true }));
    await expect(
      scanTls(
        lab.session(server.port),
        { host: LAB_TLS_HOST, port: 25, starttls: 'smtp' },
        { timeoutMs: 2_000 },
      ),
    ).rejects.toThrow(/did not start TLS over SMTP: STARTTLS is not offered in the EHLO answer/);
  });
});

describe('bad targets end with a clear error or finding, never a hang', () => {
  async function failure(promise: Promise<unknown>): Promise<NetError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(NetError);
    return error as NetError;
  }

  it('a closed port', async () => {
    const port = await closedPort();
    const error = await failure(
      scanTls(lab.session(port), { host: LAB_TLS_HOST, port: 443 }, { timeoutMs: 2_000 }),
    );
    expect(error.code).toBe('CONNECT_FAILED');
  });

  it.each([
    ['a plain HTTP server', 'http' as const, /does not speak TLS: it answered "HTTP\/1\.1 400 Bad Request/],
    ['an SSH server', 'ssh' as const, /does not speak TLS: it answered "SSH-2\.0-OpenSSH_9\.6 lab"/],
  ])('%s', async (_name, kind, message) => {
    const server = await lab.started(startPlainServer(kind));
    const error = await failure(scan(server));
    expect(error.code).toBe('PROTOCOL_ERROR');
    expect(error.message).toMatch(message);
  });

  it('an SMTP server scanned without STARTTLS: the error says to choose STARTTLS SMTP', async () => {
    const server = await lab.started(startStarttlsSmtpServer({ certificate: rsa }));
    const error = await failure(
      scanTls(lab.session(server.port), { host: LAB_TLS_HOST, port: 25 }, { timeoutMs: 2_000 }),
    );
    expect(error.code).toBe('PROTOCOL_ERROR');
    expect(error.message).toMatch(
      /does not speak TLS: it answered "220 mail\.example\.test ESMTP lab.*"; it answered like an SMTP server: choose STARTTLS SMTP$/,
    );
  });

  it('a server that floods bytes stops at the read cap', async () => {
    const server = await lab.started(startPlainServer('flood'));
    const error = await failure(scan(server));
    expect(error.code).toBe('PROTOCOL_ERROR');
    expect(error.message).toMatch(/does not speak TLS: it answered "\d+ bytes without a ServerHello"/);
  });

  it('a 40 KB certificate chain is read across records', async () => {
    // the leaf repeated after the CA: an overlong chain as misconfigured servers send
    const chain = `${rsa.chain}${rsa.cert.repeat(42)}`;
    expect(chain.length).toBeGreaterThan(40_000);
    const server = await lab.started(
      startNodeTlsServer({ certificate: { ...rsa, chain }, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' }),
    );
    const report = await scan(server);
    expect(suiteNames(report, 'TLSv1.2').length).toBeGreaterThan(5);
    expect(report.certificate?.trusted).toBe(true);
  });

  it('a server that never answers', async () => {
    const server = await lab.started(startPlainServer('silent'));
    const error = await failure(scan(server, { timeoutMs: 300 }));
    expect(error.code).toBe('FIRST_BYTE_TIMEOUT');
  });

  it('a server that stalls after ServerHello: the suites are still found, the certificate is a note', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f, 0x009c],
        certificate: rsa,
        stallAfterServerHello: true,
      }),
    );
    const report = await scan(server, { timeoutMs: 300 });
    expect(suiteNames(report, 'TLSv1.2')).toEqual([
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'TLS_RSA_WITH_AES_128_GCM_SHA256',
    ]);
    expect(report.certificate).toBeUndefined();
    expect(status(report, 'certificate')).toBe('unknown');
    expect(
      report.notes.some((note) => /^Reading the certificate: .*took longer than 300 ms/.test(note)),
    ).toBe(true);
  });

  it('a scan that runs out of budget is reported as incomplete', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f, 0x009c],
        certificate: rsa,
        stallAfterServerHello: true,
      }),
    );
    const report = await scan(server, { timeoutMs: 1_000, budgetMs: 600 });
    expect(report.incomplete).toBe(true);
    expect(report.notes.at(-1)).toMatch(/stopped at its 600 ms budget/);
  });

  it('a target the outbound rules refuse', async () => {
    const server = await lab.started(startNodeTlsServer({ certificate: rsa }));
    const error = await failure(
      scanTls(lab.session(server.port, { allowLoopback: false }), { host: LAB_TLS_HOST, port: 443 }),
    );
    expect(error.code).toBe('OUTBOUND_BLOCKED');
    expect(error.message).toBe(`Refusing to connect to ${LAB_TLS_HOST} (127.0.0.1): loopback address`);
  });
});
