// The STARTTLS preambles of the guarded probe client, each against a loopback server speaking
// the protocol's upgrade dialogue as its RFC describes it, then Node's TLS on the same socket:
// the certificate handshake through the probe must succeed and verify against the lab CA.
import net, { type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedCertificate } from '@rfckit/testlab';
import { startTls, type StarttlsProtocol } from '../src/net/starttls.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

/** What the server says and expects, as [server writes, then waits for the client to send a match] steps. */
type Dialogue = (socket: Socket, upgrade: () => void, refuse: boolean) => void;

function lines(socket: Socket, onLine: (line: string) => void): void {
  let text = '';
  const onData = (chunk: Buffer): void => {
    text += chunk.toString('latin1');
    let newline: number;
    while ((newline = text.indexOf('\r\n')) >= 0) {
      const line = text.slice(0, newline);
      text = text.slice(newline + 2);
      onLine(line);
    }
  };
  socket.on('data', onData);
  socket.once('upgrade-now', () => socket.off('data', onData));
}

const dialogues: Record<Exclude<StarttlsProtocol, 'smtp'>, Dialogue> = {
  // RFC 3501 §6.2.1
  imap: (socket, upgrade, refuse) => {
    socket.write('* OK [CAPABILITY IMAP4rev1 STARTTLS] lab ready\r\n');
    lines(socket, (line) => {
      if (line === 'a STARTTLS') {
        if (refuse) socket.write('a BAD STARTTLS not here\r\n');
        else {
          socket.write('a OK Begin TLS negotiation now\r\n');
          upgrade();
        }
      }
    });
  },
  // RFC 2595 §4
  pop3: (socket, upgrade, refuse) => {
    socket.write('+OK lab POP3 ready\r\n');
    lines(socket, (line) => {
      if (line === 'STLS') {
        if (refuse) socket.write('-ERR not here\r\n');
        else {
          socket.write('+OK Begin TLS negotiation\r\n');
          upgrade();
        }
      }
    });
  },
  // RFC 5804 §1.7, §2.2: capabilities, then OK; the refusing server lists no STARTTLS
  sieve: (socket, upgrade, refuse) => {
    socket.write(
      `"IMPLEMENTATION" "lab sieve"\r\n"SASL" "PLAIN"\r\n${refuse ? '' : '"STARTTLS"\r\n'}"VERSION" "1.0"\r\nOK "ready"\r\n`,
    );
    lines(socket, (line) => {
      if (line === 'STARTTLS' && !refuse) {
        socket.write('OK "Begin TLS negotiation now"\r\n');
        upgrade();
      }
    });
  },
  // RFC 4217 §4
  ftp: (socket, upgrade, refuse) => {
    socket.write('220-lab FTP\r\n220 ready\r\n');
    lines(socket, (line) => {
      if (line === 'AUTH TLS') {
        if (refuse) socket.write('502 not implemented\r\n');
        else {
          socket.write('234 AUTH TLS successful\r\n');
          upgrade();
        }
      }
    });
  },
  // RFC 6120 §5.4.2
  xmpp: (socket, upgrade, refuse) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (text.includes('<stream:stream') && !text.includes('sent-features')) {
        text += 'sent-features';
        socket.write(
          `<?xml version='1.0'?><stream:stream from='${LAB_TLS_HOST}' id='1' version='1.0' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><stream:features>${refuse ? '' : "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>"}</stream:features>`,
        );
      }
      if (text.includes('<starttls')) {
        socket.off('data', onData);
        socket.write("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>");
        upgrade();
      }
    };
    socket.on('data', onData);
  },
  // RFC 4511 §4.14: ExtendedResponse, messageID 1, resultCode success (0) or protocolError (2)
  ldap: (socket, upgrade, refuse) => {
    socket.once('data', (request: Buffer) => {
      const oid = Buffer.from('1.3.6.1.4.1.1466.20037');
      if (!request.includes(oid)) return;
      const result = refuse ? 2 : 0;
      const body = Buffer.concat([Buffer.from([0x0a, 0x01, result, 0x04, 0x00, 0x04, 0x00])]);
      const op = Buffer.concat([Buffer.from([0x78, body.length]), body]);
      const message = Buffer.concat([Buffer.from([0x02, 0x01, 0x01]), op]);
      socket.write(Buffer.concat([Buffer.from([0x30, message.length]), message]));
      if (!refuse) upgrade();
    });
  },
  // PostgreSQL SSLRequest: 'S' to go on with TLS, 'N' for no
  postgres: (socket, upgrade, refuse) => {
    socket.once('data', (request: Buffer) => {
      if (request.readUInt32BE(4) !== 80877103) return;
      socket.write(refuse ? 'N' : 'S');
      if (!refuse) upgrade();
    });
  },
};

let lab: TlsLab;
let certificate: IssuedCertificate;
const servers: net.Server[] = [];

async function serve(dialogue: Dialogue, refuse: boolean): Promise<number> {
  const context = tls.createSecureContext({ key: certificate.key, cert: certificate.chain });
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    dialogue(
      socket,
      () => {
        socket.emit('upgrade-now');
        socket.removeAllListeners('data');
        const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: context });
        secure.on('error', () => {});
      },
      refuse,
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function upgradeWith(protocol: Exclude<StarttlsProtocol, 'smtp'>, refuse: boolean) {
  const port = await serve(dialogues[protocol], refuse);
  const session = lab.session(port);
  const target = await session.probe.target(LAB_TLS_HOST, 443);
  const connection = await session.probe.connect(target);
  try {
    await startTls(connection, protocol, {
      host: LAB_TLS_HOST,
      clientName: 'client.example.test',
      timeoutMs: 2_000,
    });
    return await connection.handshake({ servername: LAB_TLS_HOST, timeoutMs: 2_000 });
  } finally {
    connection.close();
  }
}

beforeAll(async () => {
  lab = await createTlsLab();
  certificate = await lab.issue();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  await lab.close();
});

describe.each(Object.keys(dialogues) as Exclude<StarttlsProtocol, 'smtp'>[])(
  'STARTTLS over %s',
  (protocol) => {
    it('upgrades, and the handshake verifies against the lab CA', async () => {
      const { report } = await upgradeWith(protocol, false);
      expect(report.verified).toBe(true);
      expect(report.certificates[0]?.subjectAltNames).toEqual([`DNS:${LAB_TLS_HOST}`]);
    });

    it('says which step the server refused', async () => {
      await expect(upgradeWith(protocol, true)).rejects.toThrow(
        new RegExp(`did not start TLS over ${protocol.toUpperCase()}: `),
      );
    });
  },
);
