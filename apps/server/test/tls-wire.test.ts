// The pure TLS wire code of @rfckit/standards against independent peers: the ClientHellos it
// builds are read back by read-tls-client-hello, and Node's own TLS server (OpenSSL) answers
// them on loopback, its ServerHello, Certificate and ServerKeyExchange read by our parsers.
// Expected values are what each server was configured with, never what our code computed.
import { X509Certificate, generateKeyPairSync, getDiffieHellman } from 'node:crypto';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { type Server, type TlsOptions, createServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExtensionData, readTlsClientHello } from 'read-tls-client-hello';
import {
  type ClientHelloOptions,
  type HandshakeMessage,
  type TlsEvent,
  TlsReader,
  buildClientHello,
  extensionTypes,
  namedGroups,
  parseCertificate,
  parseServerHello,
  parseServerKeyExchange,
  signatureSchemes,
} from '@rfckit/standards';
import { type IssuedCertificate, createTestCa } from '@rfckit/testlab';

function hello(options: ClientHelloOptions): Uint8Array {
  const built = buildClientHello(options);
  if (!built.ok) throw new Error(built.error);
  return built.result;
}

function x25519Share(): Uint8Array {
  const { publicKey } = generateKeyPairSync('x25519');
  return new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url'));
}

describe('ClientHello read back by read-tls-client-hello', () => {
  const cases: [string, ClientHelloOptions][] = [
    [
      'TLS 1.2',
      {
        version: 'TLSv1.2',
        cipherSuites: [0xc02f, 0xc030, 0x009e, 0x002f, 0x000a],
        serverName: 'scan.example.org',
        alpn: ['h2', 'http/1.1'],
        statusRequest: true,
        sessionTicket: true,
        heartbeat: true,
      },
    ],
    [
      'TLS 1.3',
      {
        version: 'TLSv1.3',
        cipherSuites: [0x1301, 0x1302, 0x1303],
        serverName: 'scan.example.org',
        keyShares: [{ group: namedGroups.x25519, keyExchange: x25519Share() }],
        supportedVersions: [0x0304, 0x0303],
      },
    ],
    [
      'TLS 1.0 with the fallback signal',
      { version: 'TLSv1.0', cipherSuites: [0xc013, 0x002f], fallbackScsv: true },
    ],
  ];

  it.each(cases)('%s', async (_name, options) => {
    const bytes = hello(options);
    const stream = new PassThrough();
    stream.end(Buffer.from(bytes));
    const parsed = await readTlsClientHello(stream);
    expect(parsed.version).toBe(options.version === 'TLSv1.0' ? 0x0301 : 0x0303);
    // the renegotiation signal is the extension here, so no SCSV joins the list
    const expectedSuites = [...options.cipherSuites];
    if (options.fallbackScsv) expectedSuites.push(0x5600);
    expect(parsed.cipherSuites).toEqual(expectedSuites);
    expect(parsed.compressionMethods).toEqual([0]);
    const ids = parsed.extensions.map((e) => e.id);
    expect(ids).toContain(extensionTypes.renegotiation_info);
    if (options.serverName)
      expect(getExtensionData(parsed, 'server_name')).toEqual({ serverName: options.serverName });
    expect(getExtensionData(parsed, 'supported_groups')?.groups).toEqual([29, 23, 30, 24, 25, 256, 257]);
    if (options.version !== 'TLSv1.0')
      expect(getExtensionData(parsed, 'signature_algorithms')?.algorithms).toContain(
        signatureSchemes.rsa_pss_rsae_sha256,
      );
    else expect(ids).not.toContain(extensionTypes.signature_algorithms);
    if (options.alpn)
      expect(getExtensionData(parsed, 'application_layer_protocol_negotiation')).toEqual({
        protocols: options.alpn,
      });
    if (options.statusRequest) expect(getExtensionData(parsed, 'status_request')).toEqual({ statusType: 1 });
    if (options.heartbeat) expect(ids).toContain(extensionTypes.heartbeat);
    if (options.version === 'TLSv1.3') {
      expect(getExtensionData(parsed, 'supported_versions')).toEqual({ versions: [0x0304, 0x0303] });
      expect(parsed.sessionId).toHaveLength(32);
      const share = options.keyShares?.[0];
      expect(JSON.stringify(getExtensionData(parsed, 'key_share'))).toContain(String(share?.group));
    }
    // RFC 7685: never a hello of 256-511 bytes (the record payload is the handshake message)
    const payload = bytes.length - 5;
    expect(payload < 256 || payload >= 512).toBe(true);
  });
});

/** Sends `bytes` to the server and reads until `done` says so, the server closes, or 5 s pass. */
async function exchange(
  port: number,
  bytes: Uint8Array,
  done: (events: TlsEvent[]) => boolean,
): Promise<TlsEvent[]> {
  const reader = new TlsReader();
  const events: TlsEvent[] = [];
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => finish(), 5000);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(events);
    };
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      const read = reader.push(new Uint8Array(chunk));
      if (!read.ok) return finish(new Error(read.error));
      events.push(...read.result);
      if (done(events)) finish();
    });
    socket.on('error', () => finish());
    socket.on('close', () => finish());
  });
}

const messages = (events: TlsEvent[]): HandshakeMessage[] =>
  events.flatMap((e) => (e.kind === 'handshake' ? [e.message] : []));
const sawDone = (events: TlsEvent[]) =>
  events.some((e) => e.kind === 'alert') || messages(events).some((m) => m.name === 'server_hello_done');
const sawHello = (events: TlsEvent[]) =>
  events.some((e) => e.kind === 'alert') || messages(events).some((m) => m.name === 'server_hello');

/** DER DHParameter ::= SEQUENCE { prime INTEGER, base INTEGER } (PKCS #3) as PEM, for `dhparam`. */
function dhParamsPem(prime: Uint8Array, generator: number): string {
  const length = (n: number) => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff]);
  const integer = (bytes: number[]) => {
    const body = (bytes[0] ?? 0) & 0x80 ? [0, ...bytes] : bytes;
    return [0x02, ...length(body.length), ...body];
  };
  const content = [...integer([...prime]), ...integer([generator])];
  const der = Buffer.from([0x30, ...length(content.length), ...content]);
  return `-----BEGIN DH PARAMETERS-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END DH PARAMETERS-----\n`;
}

describe('a real TLS server (node:tls) answers our ClientHello', () => {
  let leaf: IssuedCertificate;
  const servers: Server[] = [];
  const modp14 = new Uint8Array(getDiffieHellman('modp14').getPrime()); // RFC 3526 §3, 2048 bits

  beforeAll(async () => {
    const ca = await createTestCa();
    leaf = await ca.issue({ names: ['tls.lab.test'], keyType: 'rsa-2048', selfSigned: true });
  }, 20_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function serve(options: TlsOptions): Promise<number> {
    const server = createServer({ key: leaf.key, cert: leaf.cert, ...options });
    server.on('tlsClientError', () => {});
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  }

  const tls12Suites = [0xc02f, 0xc030, 0x009e, 0x009f, 0xc013, 0x002f];

  it('TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256 on P-256: ServerHello, Certificate, ServerKeyExchange', async () => {
    const port = await serve({
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256',
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
      ecdhCurve: 'P-256',
    });
    const events = await exchange(
      port,
      hello({ version: 'TLSv1.2', cipherSuites: tls12Suites, serverName: 'tls.lab.test' }),
      sawDone,
    );
    const byName = new Map(messages(events).map((m) => [m.name, m.body]));
    expect([...byName.keys()]).toEqual([
      'server_hello',
      'certificate',
      'server_key_exchange',
      'server_hello_done',
    ]);
    const serverHello = parseServerHello(byName.get('server_hello') ?? new Uint8Array());
    expect(serverHello.ok && serverHello.result).toMatchObject({ version: 0x0303, cipherSuite: 0xc02f });
    expect(serverHello.ok && serverHello.result.renegotiationInfo).toEqual(new Uint8Array(0)); // RFC 5746
    const certificates = parseCertificate(byName.get('certificate') ?? new Uint8Array());
    expect(certificates.ok && certificates.result.map((der) => Buffer.from(der).toString('hex'))).toEqual([
      Buffer.from(new X509Certificate(leaf.cert).raw).toString('hex'),
    ]);
    const ske = parseServerKeyExchange(byName.get('server_key_exchange') ?? new Uint8Array(), {
      kind: 'ecdhe',
      version: 0x0303,
      signed: true,
    });
    expect(ske.ok && ske.result).toMatchObject({ kind: 'ecdhe', curveType: 3, group: namedGroups.secp256r1 });
    expect(ske.ok && ske.result.kind === 'ecdhe' && ske.result.point?.length).toBe(65); // uncompressed P-256
  });

  it('TLS 1.2 DHE-RSA-AES128-GCM-SHA256 with the 2048-bit MODP group: the prime is read back', async () => {
    const port = await serve({
      ciphers: 'DHE-RSA-AES128-GCM-SHA256',
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
      dhparam: dhParamsPem(modp14, 2),
    });
    const events = await exchange(port, hello({ version: 'TLSv1.2', cipherSuites: tls12Suites }), sawDone);
    const byName = new Map(messages(events).map((m) => [m.name, m.body]));
    const serverHello = parseServerHello(byName.get('server_hello') ?? new Uint8Array());
    expect(serverHello.ok && serverHello.result.cipherSuite).toBe(0x009e);
    const ske = parseServerKeyExchange(byName.get('server_key_exchange') ?? new Uint8Array(), {
      kind: 'dhe',
      version: 0x0303,
      signed: true,
    });
    expect(ske.ok).toBe(true);
    if (!ske.ok || ske.result.kind !== 'dhe') return;
    expect(ske.result.primeBits).toBe(2048);
    expect(Buffer.from(ske.result.prime).equals(Buffer.from(modp14))).toBe(true);
    expect([...ske.result.generator]).toEqual([2]);
  });

  it('TLS 1.3 TLS_AES_256_GCM_SHA384: supported_versions 0x0304 and an X25519 key share', async () => {
    const port = await serve({ minVersion: 'TLSv1.3', ciphers: 'TLS_AES_256_GCM_SHA384' });
    const events = await exchange(
      port,
      hello({
        version: 'TLSv1.3',
        cipherSuites: [0x1301, 0x1302, 0x1303],
        keyShares: [{ group: namedGroups.x25519, keyExchange: x25519Share() }],
      }),
      sawHello,
    );
    const [first] = messages(events);
    const serverHello = parseServerHello(first?.body ?? new Uint8Array());
    expect(serverHello.ok && serverHello.result).toMatchObject({
      legacyVersion: 0x0303,
      version: 0x0304,
      cipherSuite: 0x1302,
      helloRetryRequest: false,
      keyShare: { group: namedGroups.x25519 },
    });
    expect(serverHello.ok && serverHello.result.keyShare?.keyExchange?.length).toBe(32);
  });

  it('TLS 1.3 without a key share: the server asks again with a HelloRetryRequest', async () => {
    const port = await serve({ minVersion: 'TLSv1.3', ecdhCurve: 'P-256' });
    const events = await exchange(
      port,
      hello({ version: 'TLSv1.3', cipherSuites: [0x1301], keyShares: [] }),
      sawHello,
    );
    const serverHello = parseServerHello(messages(events)[0]?.body ?? new Uint8Array());
    expect(serverHello.ok && serverHello.result).toMatchObject({
      helloRetryRequest: true,
      version: 0x0304,
      cipherSuite: 0x1301,
      keyShare: { group: namedGroups.secp256r1 },
    });
  });

  it('no shared suite: a fatal handshake_failure alert (RFC 5246 §7.2)', async () => {
    const port = await serve({ ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', maxVersion: 'TLSv1.2' });
    const events = await exchange(port, hello({ version: 'TLSv1.2', cipherSuites: [0x002f] }), sawDone);
    expect(events).toContainEqual({
      kind: 'alert',
      alert: { level: 2, levelName: 'fatal', description: 40, descriptionName: 'handshake_failure' },
    });
  });

  it('a downgraded hello with TLS_FALLBACK_SCSV: inappropriate_fallback (RFC 7507 §3)', async () => {
    const port = await serve({ minVersion: 'TLSv1.2' });
    const events = await exchange(
      port,
      hello({ version: 'TLSv1.2', cipherSuites: tls12Suites, fallbackScsv: true }),
      sawDone,
    );
    expect(events).toContainEqual({
      kind: 'alert',
      alert: { level: 2, levelName: 'fatal', description: 86, descriptionName: 'inappropriate_fallback' },
    });
  });
});
