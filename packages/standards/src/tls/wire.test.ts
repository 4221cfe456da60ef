import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { ByteReader, ByteWriter } from './bytes.ts';
import { buildClientHello, buildSsl2ClientHello, clientHelloMessage } from './client-hello.ts';
import { extensionTypes, namedGroups, signatureSchemes } from './constants.ts';
import { type TlsEvent, TlsReader, parseAlert, readTlsStream } from './records.ts';
import {
  HELLO_RETRY_REQUEST_RANDOM,
  parseCertificate,
  parseServerHello,
  parseServerHelloDone,
  parseServerKeyExchange,
  serverKeyExchangeKindOf,
} from './server-messages.ts';
import { parseSsl2ServerHello } from './ssl2.ts';
import { suiteByName } from './lookup.ts';

const hex = (text: string) =>
  Uint8Array.from((text.replace(/\s+/g, '').match(/../g) ?? []).map((b) => parseInt(b, 16)));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const record = (type: number, body: Uint8Array, version = 0x0303) =>
  new ByteWriter().u8(type).u16(version).u16(body.length).bytes(body).finish();
const handshake = (type: number, body: Uint8Array) =>
  new ByteWriter().u8(type).u24(body.length).bytes(body).finish();

// RFC 8448 §3 (Simple 1-RTT Handshake): the server's ServerHello handshake message, as printed
const rfc8448ServerHello = hex(`
  02 00 00 56 03 03 a6 af 06 a4 12 18 60 dc 5e 6e 60 24 9c d3 4c 95 93 0c 8a c5 cb 14 34 da c1 55 77 2e
  d3 e2 69 28 00 13 01 00 00 2e 00 33 00 24 00 1d 00 20 c9 82 88 76 11 20 95 fe 66 76 2b db f7 c6 72 e1
  56 d6 cc 25 3b 83 3d f1 dd 69 b1 b0 4e 75 1f 0f 00 2b 00 02 03 04`);

function handshakes(events: TlsEvent[]) {
  return events.flatMap((event) => (event.kind === 'handshake' ? [event.message] : []));
}

describe('ServerHello (RFC 8448 §3 trace)', () => {
  it('reads version, random, suite and key share from the record, fed one byte at a time', () => {
    const bytes = record(22, rfc8448ServerHello);
    const reader = new TlsReader();
    const events: TlsEvent[] = [];
    for (const byte of bytes) {
      const pushed = reader.push(Uint8Array.of(byte));
      expect(pushed.ok).toBe(true);
      if (pushed.ok) events.push(...pushed.result);
    }
    expect(reader.pending).toBe(0);
    const [message] = handshakes(events);
    expect(message?.name).toBe('server_hello');
    const hello = parseServerHello(message?.body ?? new Uint8Array());
    expect(hello.ok).toBe(true);
    if (!hello.ok) return;
    expect(hello.result).toMatchObject({
      legacyVersion: 0x0303,
      version: 0x0304,
      selectedVersion: 0x0304,
      cipherSuite: 0x1301,
      compressionMethod: 0,
      helloRetryRequest: false,
    });
    expect(toHex(hello.result.random)).toBe(
      'a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e26928',
    );
    expect(hello.result.keyShare?.group).toBe(namedGroups.x25519);
    expect(toHex(hello.result.keyShare?.keyExchange ?? new Uint8Array())).toBe(
      'c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f',
    );
  });

  it('recognises a HelloRetryRequest by its random (RFC 8446 §4.1.3) and reads its selected group', () => {
    const body = new ByteWriter()
      .u16(0x0303)
      .bytes(HELLO_RETRY_REQUEST_RANDOM)
      .vector(1, () => {})
      .u16(0x1302)
      .u8(0)
      .vector(2, (w) => {
        w.u16(extensionTypes.supported_versions).vector(2, (e) => e.u16(0x0304));
        w.u16(extensionTypes.key_share).vector(2, (e) => e.u16(namedGroups.secp256r1));
      })
      .finish();
    const hello = parseServerHello(body);
    expect(hello.ok && hello.result).toMatchObject({
      helloRetryRequest: true,
      version: 0x0304,
      cipherSuite: 0x1302,
      keyShare: { group: 23 },
    });
  });

  it('reads a TLS 1.2 ServerHello with renegotiation_info, ALPN, heartbeat and the downgrade sentinel', () => {
    const random = new Uint8Array(32);
    random.set(hex('444f574e47524401'), 24); // RFC 8446 §4.1.3: "DOWNGRD" 01
    const body = new ByteWriter()
      .u16(0x0303)
      .bytes(random)
      .vector(1, (w) => w.bytes(new Uint8Array(32).fill(7)))
      .u16(0xc02f)
      .u8(0)
      .vector(2, (w) => {
        w.u16(extensionTypes.renegotiation_info).vector(2, (e) => e.u8(0));
        w.u16(extensionTypes.application_layer_protocol_negotiation).vector(2, (e) =>
          e.vector(2, (l) => l.vector(1, (n) => n.bytes([0x68, 0x32]))),
        );
        w.u16(extensionTypes.heartbeat).vector(2, (e) => e.u8(1));
        w.u16(extensionTypes.extended_master_secret).vector(2, () => {});
        w.u16(extensionTypes.ec_point_formats).vector(2, (e) => e.vector(1, (l) => l.u8(0)));
      })
      .finish();
    const hello = parseServerHello(body);
    expect(hello.ok).toBe(true);
    if (!hello.ok) return;
    expect(hello.result).toMatchObject({
      version: 0x0303,
      cipherSuite: 0xc02f,
      alpn: 'h2',
      heartbeat: 1,
      extendedMasterSecret: true,
      ecPointFormats: [0],
      downgrade: 'TLSv1.2',
    });
    expect(hello.result.renegotiationInfo).toEqual(new Uint8Array(0));
    expect(hello.result.sessionId).toHaveLength(32);
  });

  it.each([
    ['empty', '', 'TRUNCATED'],
    ['cut in the random', '0303aabb', 'TRUNCATED'],
    ['session id of 33 bytes', `0303${'00'.repeat(32)}21${'00'.repeat(33)}c02f00`, 'MALFORMED'],
    ['extensions block too long', `0303${'00'.repeat(32)}00c02f000010ff01`, 'TRUNCATED'],
    ['duplicate extension', `0303${'00'.repeat(32)}00c02f000008ff010001 00ff010001 00`, 'MALFORMED'],
    ['ALPN with two names', `0303${'00'.repeat(32)}00c02f00000a0010000600020168 016931`, 'MALFORMED'],
  ])('%s is %s', (_name, bytes, code) => {
    const hello = parseServerHello(hex(bytes));
    expect(hello.ok).toBe(false);
    if (!hello.ok) expect(hello.code).toBe(code);
  });
});

describe('record layer', () => {
  const serverHelloDone = handshake(14, new Uint8Array());
  const certificate = handshake(
    11,
    new ByteWriter()
      .vector(3, (w) => {
        w.vector(3, (c) => c.bytes(hex('3082000130')));
        w.vector(3, (c) => c.bytes(hex('30820002aaaa')));
      })
      .finish(),
  );

  it('splits several handshake messages that share one record', () => {
    const bytes = record(22, new Uint8Array([...rfc8448ServerHello, ...certificate, ...serverHelloDone]));
    const read = readTlsStream(bytes);
    expect(read.ok && handshakes(read.result.events).map((m) => m.name)).toEqual([
      'server_hello',
      'certificate',
      'server_hello_done',
    ]);
    expect(read.ok && read.result.incomplete).toBe(false);
  });

  it('reassembles a message spread over three records (RFC 5246 §6.2.1)', () => {
    const bytes = new Uint8Array([
      ...record(22, certificate.subarray(0, 3)),
      ...record(22, certificate.subarray(3, 10)),
      ...record(22, certificate.subarray(10)),
    ]);
    const read = readTlsStream(bytes);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [message] = handshakes(read.result.events);
    const certs = parseCertificate(message?.body ?? new Uint8Array());
    expect(certs.ok && certs.result.map(toHex)).toEqual(['3082000130', '30820002aaaa']);
  });

  it('says when the capture ends inside a message', () => {
    const read = readTlsStream(record(22, certificate.subarray(0, 8)));
    expect(read.ok && read.result).toEqual({ events: [], incomplete: true });
  });

  it('names alerts (RFC 8446 §6, RFC 7507 §2)', () => {
    const read = readTlsStream(new Uint8Array([...record(21, hex('0228')), ...record(21, hex('0256'))]));
    expect(read.ok && read.result.events).toEqual([
      {
        kind: 'alert',
        alert: { level: 2, levelName: 'fatal', description: 40, descriptionName: 'handshake_failure' },
      },
      {
        kind: 'alert',
        alert: { level: 2, levelName: 'fatal', description: 86, descriptionName: 'inappropriate_fallback' },
      },
    ]);
    expect(parseAlert(hex('0146')).ok && parseAlert(hex('0146'))).toMatchObject({
      result: { levelName: 'warning', descriptionName: 'protocol_version' },
    });
    expect(parseAlert(hex('02')).ok).toBe(false);
  });

  it('reports ChangeCipherSpec and treats what follows as protected once told', () => {
    const reader = new TlsReader();
    const first = reader.push(record(20, hex('01')));
    expect(first.ok && first.result).toEqual([{ kind: 'change-cipher-spec' }]);
    reader.protectFromNow();
    const second = reader.push(new Uint8Array([...record(22, hex('deadbeef')), ...record(23, hex('00'))]));
    expect(second.ok && second.result).toEqual([
      { kind: 'encrypted', type: 22, length: 4 },
      { kind: 'encrypted', type: 23, length: 1 },
    ]);
  });

  it.each([
    ['an HTTP answer', '485454502f312e31203430300d0a', 'NOT_TLS'],
    ['record version 2.0', '1602000001aa', 'NOT_TLS'],
    ['a record longer than 2^14 + 2048', '16030348010000', 'TOO_LARGE'],
    ['a ChangeCipherSpec of 2 bytes', '140303000201 01', 'MALFORMED'],
    ['an alert of 3 bytes', '1503030003022800', 'MALFORMED'],
    ['an alert in the middle of a handshake message', '16030300020b00 15030300020228', 'MALFORMED'],
  ])('%s is %s, and the reader stays failed', (_name, bytes, code) => {
    const reader = new TlsReader();
    const read = reader.push(hex(bytes));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.code).toBe(code);
    expect(reader.push(record(21, hex('0228'))).ok).toBe(false);
  });
});

describe('ServerKeyExchange and ServerHelloDone', () => {
  it('reads DHE parameters with the prime size in bits and a TLS 1.2 signature (RFC 5246 §7.4.3)', () => {
    const prime = new Uint8Array(257);
    prime[1] = 0xff; // a leading zero byte, then 2048 significant bits
    prime[256] = 0x01;
    const body = new ByteWriter()
      .vector(2, (w) => w.bytes(prime))
      .vector(2, (w) => w.u8(2))
      .vector(2, (w) => w.bytes(new Uint8Array(256).fill(9)))
      .u16(signatureSchemes.rsa_pss_rsae_sha256)
      .vector(2, (w) => w.bytes(new Uint8Array(256)))
      .finish();
    const ske = parseServerKeyExchange(body, { kind: 'dhe', version: 0x0303, signed: true });
    expect(ske.ok && ske.result).toMatchObject({
      kind: 'dhe',
      primeBits: 2048,
      signature: { scheme: 0x0804 },
    });
    // TLS 1.0/1.1 have no SignatureAndHashAlgorithm: the same bytes do not parse as such
    expect(parseServerKeyExchange(body, { kind: 'dhe', version: 0x0301, signed: true }).ok).toBe(false);
  });

  it('reads an ECDHE named curve (RFC 8422 §5.4) and refuses trailing bytes', () => {
    const point = new Uint8Array(65).fill(4);
    const body = new ByteWriter()
      .u8(3)
      .u16(namedGroups.secp384r1)
      .vector(1, (w) => w.bytes(point))
      .vector(2, (w) => w.bytes(new Uint8Array(71)))
      .finish();
    const ske = parseServerKeyExchange(body, { kind: 'ecdhe', version: 0x0302, signed: true });
    expect(ske.ok && ske.result).toMatchObject({ kind: 'ecdhe', curveType: 3, group: 24 });
    const extra = new Uint8Array([...body, 0]);
    expect(parseServerKeyExchange(extra, { kind: 'ecdhe', version: 0x0302, signed: true }).ok).toBe(false);
  });

  it.each([
    ['TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', { kind: 'dhe', signed: true }],
    ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', { kind: 'ecdhe', signed: true }],
    ['TLS_DH_anon_WITH_AES_128_CBC_SHA', { kind: 'dhe', signed: false }],
    ['TLS_ECDH_anon_WITH_AES_128_CBC_SHA', { kind: 'ecdhe', signed: false }],
    ['TLS_RSA_EXPORT_WITH_RC4_40_MD5', { kind: 'rsa', signed: true }],
    ['TLS_RSA_WITH_AES_128_CBC_SHA', undefined],
    ['TLS_AES_128_GCM_SHA256', undefined],
  ] as const)('%s sends %j', (name, expected) => {
    const suite = suiteByName(name);
    expect(suite).toBeDefined();
    if (suite) expect(serverKeyExchangeKindOf(suite)).toEqual(expected);
  });

  it('reads ServerHelloDone as empty only', () => {
    expect(parseServerHelloDone(new Uint8Array()).ok).toBe(true);
    expect(parseServerHelloDone(hex('00')).ok).toBe(false);
  });

  it('reads the TLS 1.3 Certificate form (RFC 8446 §4.4.2)', () => {
    const body = new ByteWriter()
      .vector(1, () => {})
      .vector(3, (w) => w.vector(3, (c) => c.bytes(hex('3003020101'))).vector(2, () => {}))
      .finish();
    expect(parseCertificate(body, { tls13: true })).toEqual({ ok: true, result: [hex('3003020101')] });
    expect(parseCertificate(body).ok).toBe(false);
  });
});

/** The extensions of a ClientHello handshake message, walked by hand from RFC 5246 §7.4.1.2. */
function helloExtensions(message: Uint8Array): Map<number, Uint8Array> {
  const reader = new ByteReader(message, 4);
  reader.take(2 + 32);
  reader.vector(1);
  reader.vector(2);
  reader.vector(1);
  const block = new ByteReader(reader.vector(2) ?? new Uint8Array());
  const map = new Map<number, Uint8Array>();
  while (block.remaining > 0) map.set(block.u16() ?? -1, block.vector(2) ?? new Uint8Array());
  return map;
}

describe('ClientHello builders', () => {
  it('builds the SSL 3.0 hello byte for byte (RFC 6101 §5.6.1.2), with the SCSV of RFC 5746 §3.3', () => {
    const built = buildClientHello({ version: 'SSLv3', cipherSuites: [0x000a], random: new Uint8Array(32) });
    // record 0x2f = 4-byte header + 43-byte body: version 2, random 32, empty session id 1,
    // suites 2 + 4 (0x000A, then the SCSV 0x00FF), compression methods 1 + 1 (null)
    const expected = `160300002f 0100002b 0300 ${'00'.repeat(32)} 00 0004 000a 00ff 01 00`;
    expect(built.ok && toHex(built.result)).toBe(expected.replace(/\s/g, ''));
  });

  it('builds the SSL 2.0 CLIENT-HELLO byte for byte (draft-ietf-tls-ssl-version2 §2.5)', () => {
    const built = buildSsl2ClientHello({
      cipherKinds: [0x010080, 0x0700c0],
      challenge: hex('000102030405060708090a0b0c0d0e0f'),
    });
    // 2-byte header with the high bit, MSG-CLIENT-HELLO, version 2, 6 bytes of specs, no session, 16-byte challenge
    expect(built.ok && toHex(built.result)).toBe(
      '801f' +
        '01' +
        '0002' +
        '0006' +
        '0000' +
        '0010' +
        '010080' +
        '0700c0' +
        '000102030405060708090a0b0c0d0e0f',
    );
  });

  it('pads a hello of 256-511 bytes to 512 (RFC 7685 §4) and leaves others alone', () => {
    for (let count = 1; count < 250; count += 7) {
      const suites = Array.from({ length: count }, (_, i) => 0xc000 + i);
      const message = clientHelloMessage({
        version: 'TLSv1.2',
        cipherSuites: suites,
        serverName: 'example.com',
      });
      const unpadded = clientHelloMessage({
        version: 'TLSv1.2',
        cipherSuites: suites,
        serverName: 'example.com',
        padding: false,
      });
      if (unpadded.length > 255 && unpadded.length < 512) {
        // exactly 512, or a little over when fewer than 5 bytes were missing: the smallest
        // padding extension is 5 bytes (type, length, one zero byte)
        expect(message.length).toBe(Math.max(512, unpadded.length + 5));
        expect(helloExtensions(message).has(extensionTypes.padding)).toBe(true);
      } else {
        expect(message).toHaveLength(unpadded.length);
      }
    }
  });

  it('sends the TLS 1.3 extensions with legacy_version 0x0303 and the key share as given', () => {
    const key = new Uint8Array(32).fill(0x42);
    const message = clientHelloMessage({
      version: 'TLSv1.3',
      cipherSuites: [0x1301],
      keyShares: [{ group: namedGroups.x25519, keyExchange: key }],
      alpn: ['h2', 'http/1.1'],
      statusRequest: true,
      heartbeat: true,
      sessionTicket: true,
    });
    expect(toHex(message.subarray(4, 6))).toBe('0303');
    const extensions = helloExtensions(message);
    expect(toHex(extensions.get(extensionTypes.supported_versions) ?? new Uint8Array())).toBe('020304');
    expect(toHex(extensions.get(extensionTypes.key_share) ?? new Uint8Array())).toBe(
      `0024001d0020${'42'.repeat(32)}`,
    );
    expect(toHex(extensions.get(extensionTypes.status_request) ?? new Uint8Array())).toBe('0100000000');
    expect(toHex(extensions.get(extensionTypes.heartbeat) ?? new Uint8Array())).toBe('01');
    expect(
      toHex(extensions.get(extensionTypes.application_layer_protocol_negotiation) ?? new Uint8Array()),
    ).toBe('000c02683208687474702f312e31');
    expect(extensions.get(extensionTypes.session_ticket)).toEqual(new Uint8Array());
  });

  it('puts TLS_FALLBACK_SCSV last (RFC 7507 §4) and signature_algorithms only from TLS 1.2', () => {
    const message = clientHelloMessage({ version: 'TLSv1.1', cipherSuites: [0xc013], fallbackScsv: true });
    const reader = new ByteReader(message, 4 + 2 + 32);
    reader.vector(1);
    expect(toHex(reader.vector(2) ?? new Uint8Array())).toBe('c0135600');
    expect(helloExtensions(message).has(extensionTypes.signature_algorithms)).toBe(false);
    expect(helloExtensions(message).has(extensionTypes.renegotiation_info)).toBe(true);
  });

  it.each([
    [{ version: 'TLSv1.2', cipherSuites: [] }, 'at least one'],
    [{ version: 'TLSv1.2', cipherSuites: [0x10000] }, '65535'],
    [{ version: 'TLSv1.2', cipherSuites: [1], serverName: '192.0.2.1' }, 'server_name'],
    [{ version: 'TLSv1.2', cipherSuites: [1], sessionId: new Uint8Array(33) }, '32 bytes'],
    [{ version: 'TLSv1.2', cipherSuites: [1], alpn: [''] }, 'ALPN'],
  ] as const)('refuses %j', (options, message) => {
    const built = buildClientHello(options);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.error).toContain(message);
  });
});

describe('SSL 2.0 SERVER-HELLO', () => {
  it('lists every cipher kind and the certificate (draft-ietf-tls-ssl-version2 §2.6)', () => {
    const body = new ByteWriter()
      .u8(4)
      .u8(0)
      .u8(1)
      .u16(0x0002)
      .u16(3)
      .u16(6)
      .u16(16)
      .bytes(hex('300100'))
      .bytes(hex('010080 0700c0'))
      .bytes(new Uint8Array(16).fill(1))
      .finish();
    const bytes = new ByteWriter()
      .u16(0x8000 | body.length)
      .bytes(body)
      .finish();
    const hello = parseSsl2ServerHello(bytes);
    expect(hello.ok && hello.result).toMatchObject({
      kind: 'server-hello',
      version: 2,
      certificateType: 1,
      certificate: hex('300100'),
      cipherKinds: [0x010080, 0x0700c0],
      cipherNames: ['SSL_CK_RC4_128_WITH_MD5', 'SSL_CK_DES_192_EDE3_CBC_WITH_MD5'],
    });
  });

  it.each([
    ['an ERROR', '8003000001', { ok: true }],
    ['a TLS alert', '15030300020228', { ok: false, code: 'NOT_TLS' }],
    ['a cut header', '80', { ok: false, code: 'TRUNCATED' }],
  ])('%s', (_name, bytes, expected) => {
    expect(parseSsl2ServerHello(hex(bytes))).toMatchObject(expected);
  });
});

describe('fuzzing the parsers', () => {
  const seeds: Uint8Array[] = [
    record(22, rfc8448ServerHello),
    record(21, hex('0228')),
    record(22, handshake(12, hex('030017 41 04' + '11'.repeat(64) + '0403 0002 aabb'))),
    record(22, handshake(11, hex('000006 000003 300100'))),
    record(22, handshake(14, new Uint8Array())),
    hex('800f 04 00 01 0002 0000 0003 0010 010080' + '01'.repeat(16)).subarray(0, 17),
  ];

  it('never throws on 10,000 mutated inputs (seed 20261122)', () => {
    const rng = createRng(20261122);
    const pick = (n: number) => Math.floor(rng() * n);
    for (let round = 0; round < 10_000; round++) {
      const seed = seeds[round % seeds.length] ?? new Uint8Array();
      const bytes = Uint8Array.from(seed);
      const mutations = 1 + pick(4);
      let mutated = bytes;
      for (let m = 0; m < mutations; m++) {
        const at = pick(Math.max(mutated.length, 1));
        switch (pick(4)) {
          case 0:
            mutated[at] = pick(256);
            break;
          case 1:
            mutated = mutated.subarray(0, at);
            break;
          case 2:
            mutated = Uint8Array.from([...mutated.subarray(0, at), pick(256), ...mutated.subarray(at)]);
            break;
          default:
            mutated[at] = [0x00, 0xff, 0x7f, 0x80][pick(4)] ?? 0;
        }
      }
      expect(
        () => {
          const reader = new TlsReader();
          let offset = 0;
          while (offset < mutated.length) {
            const step = 1 + pick(40);
            const pushed = reader.push(mutated.subarray(offset, offset + step));
            offset += step;
            if (!pushed.ok) break;
            for (const event of pushed.result) {
              if (event.kind !== 'handshake') continue;
              const body = event.message.body;
              parseServerHello(body);
              parseCertificate(body);
              parseCertificate(body, { tls13: true });
              parseServerHelloDone(body);
              for (const kind of ['dhe', 'ecdhe', 'rsa'] as const)
                for (const version of [0x0301, 0x0303])
                  parseServerKeyExchange(body, { kind, version, signed: rng() < 0.5 });
            }
          }
          parseSsl2ServerHello(mutated);
          parseServerHello(mutated);
          parseAlert(mutated.subarray(0, 2));
        },
        `round ${round}: ${toHex(mutated)}`,
      ).not.toThrow();
    }
  }, 30_000);
});
