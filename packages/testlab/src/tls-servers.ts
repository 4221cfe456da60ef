// TLS servers on loopback with chosen configurations, for the TLS scanner's tests and bench:
// Node's own (OpenSSL inside), `openssl s_server` when installed, a scripted
// server that answers ClientHellos byte by byte for what no current library serves (SSL 2.0,
// SSL 3.0, export, NULL, RC4, a Heartbleed-vulnerable heartbeat), and a STARTTLS SMTP server.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { IssuedCertificate } from './ca.ts';

export interface LabTlsServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Whether a program is on PATH (the peers and servers the TLS tests compare with). */
export function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Closes `server` and destroys every socket it still holds. */
export function tracked(server: net.Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** Listens on `host` and a random port; resolves to the port. */
export async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export interface NodeTlsServerOptions {
  certificate: IssuedCertificate;
  /**
   * More certificates of other key types (an ECDSA one beside an RSA one): OpenSSL serves each
   * client the one its suites and signature algorithms can use.
   */
  extraCertificates?: readonly IssuedCertificate[];
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
  /** OpenSSL cipher string for TLS 1.2 and below. */
  ciphers?: string;
  /** TLS 1.3 suites, `TLS_AES_128_GCM_SHA256:…`. */
  ciphersuites?: string;
  /** Groups, `X25519:P-256`. */
  ecdhCurve?: string;
  honorCipherOrder?: boolean;
  /** 'auto' or PEM DH parameters for DHE suites. */
  dhparam?: string;
  alpn?: string[];
  /** A stapled OCSP response (RFC 6066 §8) sent to clients that ask with status_request. */
  ocspResponse?: Uint8Array;
  host?: string;
}

/** A Node `tls` server that completes handshakes and then closes (OpenSSL does the TLS). */
export async function startNodeTlsServer(options: NodeTlsServerOptions): Promise<LabTlsServer> {
  const host = options.host ?? '127.0.0.1';
  const served = [options.certificate, ...(options.extraCertificates ?? [])];
  const keys = served.map((certificate) => certificate.key);
  const chains = served.map((certificate) => certificate.chain);
  const server = tls.createServer(
    {
      key: keys,
      cert: chains,
      ...(options.minVersion === undefined ? {} : { minVersion: options.minVersion }),
      ...(options.maxVersion === undefined ? {} : { maxVersion: options.maxVersion }),
      ...(options.ciphers === undefined ? {} : { ciphers: options.ciphers }),
      ...(options.ecdhCurve === undefined ? {} : { ecdhCurve: options.ecdhCurve }),
      ...(options.honorCipherOrder === undefined ? {} : { honorCipherOrder: options.honorCipherOrder }),
      ...(options.dhparam === undefined ? {} : { dhparam: options.dhparam }),
      ...(options.alpn === undefined ? {} : { ALPNProtocols: options.alpn }),
    },
    // a word before closing: OpenSSL sends TLS 1.3 session tickets with the first write
    (socket) => socket.end('rfckit lab\n'),
  );
  if (options.ciphersuites !== undefined)
    server.setSecureContext({
      key: keys,
      cert: chains,
      ...(options.minVersion === undefined ? {} : { minVersion: options.minVersion }),
      ...(options.maxVersion === undefined ? {} : { maxVersion: options.maxVersion }),
      ciphers: [options.ciphers, options.ciphersuites].filter((part) => part !== undefined).join(':'),
      ...(options.ecdhCurve === undefined ? {} : { ecdhCurve: options.ecdhCurve }),
      ...(options.dhparam === undefined ? {} : { dhparam: options.dhparam }),
    });
  // handshake failures are the point of many probes: nothing to report
  server.on('tlsClientError', () => {});
  const { ocspResponse } = options;
  if (ocspResponse !== undefined)
    server.on(
      'OCSPRequest',
      (_certificate: Buffer, _issuer: Buffer, callback: (error: Error | null, response: Buffer) => void) =>
        callback(null, Buffer.from(ocspResponse)),
    );
  const close = tracked(server);
  const port = await listen(server, host);
  return { host, port, close };
}

function certificateFiles(certificate: IssuedCertificate): { dir: string; cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  writeFileSync(cert, certificate.chain);
  writeFileSync(key, certificate.key);
  return { dir, cert, key };
}

/** Starts a server program and waits for the line that tells its port. */
async function startProgram(
  program: string,
  args: string[],
  portLine: RegExp,
  dir: string,
  host: string,
): Promise<LabTlsServer> {
  const child: ChildProcess = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${program} did not start: ${output.slice(0, 500)}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('latin1');
      const match = portLine.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${program} exited with ${code}: ${output.slice(0, 500)}`));
    });
  });
  // keep draining its output so that it never blocks on a full pipe
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    host,
    port,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface OpensslServerOptions {
  certificate: IssuedCertificate;
  /** Extra s_server arguments: `-tls1`, `-cipher`, `-dhparam` … */
  args: readonly string[];
  host?: string;
}

/** `openssl s_server` on a free loopback port (it prints `ACCEPT 127.0.0.1:PORT`). */
export function startOpensslServer(options: OpensslServerOptions): Promise<LabTlsServer> {
  const host = options.host ?? '127.0.0.1';
  const files = certificateFiles(options.certificate);
  return startProgram(
    'openssl',
    [
      's_server',
      '-accept',
      `${host}:0`,
      '-cert',
      files.cert,
      '-key',
      files.key,
      '-naccept',
      '100000',
      ...options.args,
    ],
    /ACCEPT \S+:(\d+)/,
    files.dir,
    host,
  );
}

// ——— the scripted server ———

export interface ScriptedTlsOptions {
  /** Versions it answers, e.g. ['SSLv3', 'TLSv1.0'] (no TLS 1.3). */
  versions: readonly ('SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2')[];
  /** Suite code points in the server's order of preference. */
  suites: readonly number[];
  /** Other suites for some versions (RC4 with TLS 1.0 only, CBC with SSL 3.0 only). */
  suitesByVersion?: Partial<Record<'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2', readonly number[]>>;
  /** SSL 2.0 cipher kinds answered in SERVER-HELLO; none: SSL 2.0 hellos are dropped. */
  ssl2Kinds?: readonly number[];
  certificate: IssuedCertificate;
  /** Other certificates, each sent instead of `certificate` with its suites (an ECDSA one for ECDH-ECDSA). */
  certificatesBySuite?: readonly { suites: readonly number[]; certificate: IssuedCertificate }[];
  /** Answers renegotiation_info (RFC 5746). Default true. */
  secureRenegotiation?: boolean;
  /** Chooses DEFLATE when offered. */
  compression?: boolean;
  /** Negotiates the heartbeat extension; `vulnerable` answers oversized requests with memory. */
  heartbeat?: 'vulnerable' | 'patched';
  /**
   * A ChangeCipherSpec before the key exchange (CVE-2014-0224): `patched` (the default) refuses it
   * with unexpected_message, as OpenSSL 0.9.8za/1.0.0m/1.0.1h and later do; `vulnerable` takes it,
   * as older OpenSSL did, and then fails to decrypt every record that follows.
   */
  ccsInjection?: 'vulnerable' | 'patched';
  /** Bits of the DH prime sent with DHE suites. Default 2048. */
  dhBits?: number;
  /** Sends ServerHello, then nothing more (a server that stalls). */
  stallAfterServerHello?: boolean;
  /** Refuses a lower version offered with TLS_FALLBACK_SCSV (RFC 7507). Default true. */
  fallbackScsv?: boolean;
  /** Closes the connection without an alert when no suite is shared (as some servers do). */
  closeOnNoSharedSuite?: boolean;
  /**
   * Never answers a ClientHello record of 256-511 bytes: the F5 bug that RFC 7685's padding
   * extension was made to step around.
   */
  hangOn256To511?: boolean;
  /**
   * Never answers a ClientHello it would answer with one of these versions (nor, with `SSLv2`, an
   * SSL 2.0 CLIENT-HELLO): the connection stays open and silent, as a server that stalls on them.
   */
  silentFor?: readonly ('SSLv2' | 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2')[];
}

export interface ScriptedTlsServer extends LabTlsServer {
  /** Connections accepted so far, and the most open at once. */
  readonly stats: { connections: number; peak: number };
}

const VERSION_CODES = { SSLv3: 0x0300, 'TLSv1.0': 0x0301, 'TLSv1.1': 0x0302, 'TLSv1.2': 0x0303 } as const;

interface ParsedHello {
  version: number;
  suites: number[];
  compression: number[];
  extensions: Map<number, Buffer>;
}

function parseClientHello(body: Buffer): ParsedHello | undefined {
  try {
    let at = 0;
    const version = body.readUInt16BE(at);
    at += 2 + 32;
    at += 1 + body.readUInt8(at);
    const suitesLength = body.readUInt16BE(at);
    at += 2;
    const suites: number[] = [];
    for (let i = 0; i < suitesLength; i += 2) suites.push(body.readUInt16BE(at + i));
    at += suitesLength;
    const compressionLength = body.readUInt8(at);
    const compression = [...body.subarray(at + 1, at + 1 + compressionLength)];
    at += 1 + compressionLength;
    const extensions = new Map<number, Buffer>();
    if (at + 2 <= body.length) {
      const end = at + 2 + body.readUInt16BE(at);
      at += 2;
      while (at + 4 <= end) {
        const type = body.readUInt16BE(at);
        const length = body.readUInt16BE(at + 2);
        extensions.set(type, body.subarray(at + 4, at + 4 + length));
        at += 4 + length;
      }
    }
    return { version, suites, compression, extensions };
  } catch {
    return undefined;
  }
}

function record(type: number, version: number, fragment: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(type, 0);
  header.writeUInt16BE(version, 1);
  header.writeUInt16BE(fragment.length, 3);
  return Buffer.concat([header, fragment]);
}

function handshake(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  header.writeUInt8(type, 0);
  return Buffer.concat([header, body]);
}

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}

function u24(value: number): Buffer {
  return Buffer.from([(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);
}

function vector2(bytes: Buffer): Buffer {
  return Buffer.concat([u16(bytes.length), bytes]);
}

/** A number of `bits` bits (top bit set), standing for a DH prime or RSA modulus: only its size is read. */
function sized(bits: number): Buffer {
  const out = Buffer.alloc(Math.ceil(bits / 8), 0xa5);
  out[0] = 0x80 | 0x25;
  return out;
}

/** A server answering ClientHellos from the script: ServerHello, Certificate, key exchange, Done. */
export async function startScriptedTlsServer(options: ScriptedTlsOptions): Promise<ScriptedTlsServer> {
  const host = '127.0.0.1';
  const stats = { connections: 0, peak: 0 };
  let open = 0;
  const der = new X509Certificate(options.certificate.cert).raw;
  const derOf = (suite: number) => {
    const other = options.certificatesBySuite?.find((entry) => entry.suites.includes(suite));
    return other === undefined ? der : new X509Certificate(other.certificate.cert).raw;
  };
  const versions = options.versions.map((name) => VERSION_CODES[name]).sort((a, b) => b - a);
  const server = net.createServer((socket) => {
    stats.connections++;
    open++;
    stats.peak = Math.max(stats.peak, open);
    socket.on('close', () => open--);
    let buffer = Buffer.alloc(0);
    let negotiated: number | undefined;
    let earlyCcsAccepted = false;
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (negotiated === undefined) {
        // an SSL 2.0 CLIENT-HELLO: two-byte header with the high bit, message type 1
        if ((buffer[0] ?? 0) & 0x80 && buffer[2] === 1) {
          const length = (((buffer[0] ?? 0) & 0x7f) << 8) | (buffer[1] ?? 0);
          if (buffer.length < 2 + length || options.silentFor?.includes('SSLv2')) return;
          answerSsl2(socket, buffer.subarray(2, 2 + length));
          return;
        }
        if (buffer.length < 5) return;
        const length = buffer.readUInt16BE(3);
        if (buffer.length < 5 + length) return;
        const fragment = buffer.subarray(5, 5 + length);
        buffer = buffer.subarray(5 + length);
        if (options.hangOn256To511 && length >= 256 && length <= 511) return;
        if (fragment[0] !== 1 || fragment.length < 4) {
          socket.destroy();
          return;
        }
        const hello = parseClientHello(fragment.subarray(4, 4 + fragment.readUIntBE(1, 3)));
        if (hello === undefined) {
          socket.destroy();
          return;
        }
        negotiated = answerHello(socket, hello);
        return;
      }
      // after the flight: heartbeat requests (content type 24)
      while (buffer.length >= 5) {
        const length = buffer.readUInt16BE(3);
        if (buffer.length < 5 + length) return;
        const type = buffer[0];
        const fragment = buffer.subarray(5, 5 + length);
        buffer = buffer.subarray(5 + length);
        if (earlyCcsAccepted) {
          // keys derived from an empty master secret: nothing the client sends decrypts
          socket.end(record(21, negotiated, Buffer.from([2, 21])));
          return;
        }
        if (type === 20) {
          if (options.ccsInjection === 'vulnerable') {
            earlyCcsAccepted = true;
            continue;
          }
          // RFC 5246 §7.1: ChangeCipherSpec only after the key exchange
          socket.end(record(21, negotiated, Buffer.from([2, 10])));
          return;
        }
        if (type !== 24) {
          // a client finishing the handshake: a real server could not decrypt what follows
          socket.end(record(21, negotiated, Buffer.from([2, 40])));
          return;
        }
        if (fragment[0] === 1 && options.heartbeat === 'vulnerable') {
          // the bug: trust payload_length and copy that much "memory"
          const claimed = fragment.readUInt16BE(1);
          const memory = Buffer.alloc(claimed + 16, 0x4d);
          socket.write(record(24, negotiated, Buffer.concat([Buffer.from([2]), u16(claimed), memory])));
        }
      }
    });
  });

  function answerSsl2(socket: Socket, body: Buffer): void {
    const kinds = options.ssl2Kinds ?? [];
    const specsLength = body.readUInt16BE(3);
    const offered: number[] = [];
    for (let i = 0; i < specsLength; i += 3) offered.push(body.readUIntBE(9 + i, 3));
    const shared = kinds.filter((kind) => offered.includes(kind));
    if (shared.length === 0) {
      socket.destroy();
      return;
    }
    const connectionId = Buffer.alloc(16, 7);
    const message = Buffer.concat([
      Buffer.from([4, 0, 1]),
      u16(0x0002),
      u16(der.length),
      u16(shared.length * 3),
      u16(connectionId.length),
      der,
      ...shared.map(u24),
      connectionId,
    ]);
    socket.write(Buffer.concat([u16(0x8000 | message.length), message]));
    socket.end();
  }

  function answerHello(socket: Socket, hello: ParsedHello): number | undefined {
    const alert = (description: number, version: number): undefined => {
      socket.end(record(21, version, Buffer.from([2, description])));
      return undefined;
    };
    const version = versions.find((candidate) => candidate <= hello.version);
    if (version === undefined) return alert(70, versions.at(-1) ?? 0x0301);
    if (hello.suites.includes(0x5600) && version < (versions[0] ?? 0) && options.fallbackScsv !== false)
      return alert(86, version);
    const versionName = (Object.keys(VERSION_CODES) as (keyof typeof VERSION_CODES)[]).find(
      (name) => VERSION_CODES[name] === version,
    );
    if (versionName !== undefined && options.silentFor?.includes(versionName)) return undefined;
    const suites = (versionName && options.suitesByVersion?.[versionName]) ?? options.suites;
    const suite = suites.find((code) => hello.suites.includes(code));
    if (suite === undefined) {
      if (!options.closeOnNoSharedSuite) return alert(40, version);
      socket.destroy();
      return undefined;
    }
    const extensions: Buffer[] = [];
    const wantsRenegotiation = hello.extensions.has(0xff01) || hello.suites.includes(0x00ff);
    // renegotiation_info answers SSL 3.0's SCSV too (RFC 5746 §4.5), as OpenSSL does
    if (options.secureRenegotiation !== false && wantsRenegotiation)
      extensions.push(Buffer.concat([u16(0xff01), vector2(Buffer.from([0]))]));
    if (version > 0x0300) {
      if (options.heartbeat !== undefined && hello.extensions.has(15))
        extensions.push(Buffer.concat([u16(15), vector2(Buffer.from([1]))]));
    }
    const compression = options.compression && hello.compression.includes(1) ? 1 : 0;
    const random = Buffer.alloc(32, 0x42);
    const serverHello = Buffer.concat([
      u16(version),
      random,
      Buffer.from([32]),
      Buffer.alloc(32, 0x11),
      u16(suite),
      Buffer.from([compression]),
      ...(extensions.length > 0 ? [vector2(Buffer.concat(extensions))] : []),
    ]);
    const flight = [handshake(2, serverHello)];
    if (!options.stallAfterServerHello) {
      const leaf = derOf(suite);
      flight.push(handshake(11, Buffer.concat([u24(leaf.length + 3), u24(leaf.length), leaf])));
      const keyExchange = scriptedKeyExchange(suite, version);
      if (keyExchange !== undefined) flight.push(handshake(12, keyExchange));
      flight.push(handshake(14, Buffer.alloc(0)));
    }
    socket.write(record(22, version, Buffer.concat(flight)));
    return version;
  }

  function scriptedKeyExchange(suite: number, version: number): Buffer | undefined {
    const signature = Buffer.concat([
      ...(version >= 0x0303 ? [u16(0x0401)] : []),
      vector2(Buffer.alloc(64, 0x5a)),
    ]);
    // the DHE and DH_anon suites this script is given: 0x0011-0x0016 (DHE/EXP-DHE), 0x0017-0x001B (anon), 0x0033, 0x0039
    const dhe = [0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x33, 0x39, 0x66];
    const anonDh = [0x17, 0x18, 0x19, 0x1a, 0x1b, 0x34, 0x3a];
    const exportDh = [0x11, 0x14, 0x19];
    const exportRsa = [0x03, 0x06, 0x08];
    if (dhe.includes(suite) || anonDh.includes(suite)) {
      const bits = exportDh.includes(suite) ? 512 : (options.dhBits ?? 2048);
      const params = Buffer.concat([
        vector2(sized(bits)),
        vector2(Buffer.from([2])),
        vector2(sized(bits - 8)),
      ]);
      return anonDh.includes(suite) ? params : Buffer.concat([params, signature]);
    }
    if (exportRsa.includes(suite))
      return Buffer.concat([vector2(sized(512)), vector2(Buffer.from([1, 0, 1])), signature]);
    return undefined;
  }

  const close = tracked(server);
  const port = await listen(server, host);
  return { host, port, close, stats };
}

// ——— STARTTLS SMTP ———

/** An SMTP server offering STARTTLS (RFC 3207) that hands the connection to Node's TLS. */
export async function startStarttlsSmtpServer(options: {
  certificate: IssuedCertificate;
  /** Leave STARTTLS out of the EHLO answer. */
  withoutStarttls?: boolean;
}): Promise<LabTlsServer> {
  const host = '127.0.0.1';
  const context = tls.createSecureContext({ key: options.certificate.key, cert: options.certificate.chain });
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.write('220 mail.example.test ESMTP lab\r\n');
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      let newline: number;
      while ((newline = text.indexOf('\r\n')) >= 0) {
        const line = text.slice(0, newline);
        text = text.slice(newline + 2);
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO')
          socket.write(
            options.withoutStarttls
              ? '250-mail.example.test\r\n250 SIZE 10240000\r\n'
              : '250-mail.example.test\r\n250-SIZE 10240000\r\n250 STARTTLS\r\n',
          );
        else if (verb === 'STARTTLS' && !options.withoutStarttls) {
          socket.off('data', onData);
          socket.write('220 2.0.0 Ready to start TLS\r\n');
          const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: context });
          secure.on('error', () => {});
          secure.on('secure', () => secure.end());
          return;
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('502 5.5.2 command not recognised\r\n');
      }
    };
    socket.on('data', onData);
  });
  const close = tracked(server);
  const port = await listen(server, host);
  return { host, port, close };
}

/**
 * A server that is not TLS: an SSH greeting, a plain HTTP answer, silence, or a flood of
 * handshake-looking bytes that never form a ServerHello (for read caps).
 */
export async function startPlainServer(kind: 'http' | 'ssh' | 'silent' | 'flood'): Promise<LabTlsServer> {
  const host = '127.0.0.1';
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    if (kind === 'ssh') socket.write('SSH-2.0-OpenSSH_9.6 lab\r\n');
    if (kind === 'flood') {
      // a ServerHello announcing almost 1 MiB, sent in records until the peer hangs up
      const header = Buffer.from([2, 0x0f, 0xff, 0xff]);
      const filler = Buffer.alloc(16_000, 0x2a);
      let sent = 0;
      const pump = (): void => {
        while (!socket.destroyed && sent < 4 * 1024 * 1024) {
          const fragment = sent === 0 ? Buffer.concat([header, filler]) : filler;
          sent += fragment.length;
          if (
            !socket.write(
              Buffer.concat([
                Buffer.from([22, 3, 3, fragment.length >> 8, fragment.length & 0xff]),
                fragment,
              ]),
            )
          )
            return void socket.once('drain', pump);
        }
        socket.end();
      };
      pump();
    }
    if (kind === 'http')
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nplain HTTP here\n',
        ),
      );
  });
  const close = tracked(server);
  const port = await listen(server, host);
  return { host, port, close };
}
