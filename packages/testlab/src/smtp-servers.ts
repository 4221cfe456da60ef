// SMTP servers on loopback for the mail transport tools: a real SMTP implementation (the
// `smtp-server` package) for well-behaved servers, STARTTLS or implicit TLS, and a small scripted
// server for the faults real servers show: 4xx/554 banners, a slow or missing banner, STARTTLS
// answered 454 or dropped, extensions that change after STARTTLS, EHLO refused.
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { SMTPServer } from 'smtp-server';
import type { IssuedCertificate } from './ca.ts';
import { type LabTlsServer, listen, tracked } from './tls-servers.ts';

export type SmtpLabVariant =
  /** STARTTLS offered and working (smtp-server); AUTH and REQUIRETLS appear only after TLS. */
  | 'starttls'
  /** No STARTTLS in the EHLO answer (smtp-server). */
  | 'no-starttls'
  /** TLS from the first byte, as on port 465 (RFC 8314 §3; smtp-server). */
  | 'implicit-tls'
  /** STARTTLS advertised but answered "454 4.7.0 TLS not available" (RFC 3207 §4). */
  | 'starttls-454'
  /** STARTTLS answered 220, then the connection is closed instead of a handshake. */
  | 'starttls-drop'
  /** Accepts the connection and never greets. */
  | 'no-banner'
  /** Greets "421 4.7.0 … try again later", greylisting style (RFC 5321 §4.2.1, §3.8). */
  | 'greylist'
  /** Greets "554 5.7.1 no SMTP service here" (RFC 5321 §3.1). */
  | 'reject-554'
  /** Answers EHLO with 502, as servers that only know HELO do (RFC 5321 §4.1.4). */
  | 'ehlo-rejected'
  /** After STARTTLS: SIZE and 8BITMIME lost, AUTH gained, and STARTTLS offered again (RFC 3207 §4.2). */
  | 'extensions-change';

export interface SmtpServerOptions {
  variant: SmtpLabVariant;
  /** The certificate presented on TLS; required by every variant that reaches a handshake. */
  certificate?: IssuedCertificate;
  /** The name in the greeting and the EHLO answer (default `mx.example.test`). */
  name?: string;
  /** Wait this long before the banner. */
  bannerDelayMs?: number;
}

export interface LabSmtpServer extends LabTlsServer {
  /** Every command line received, in order, over all connections (TLS ones too). */
  readonly commands: string[];
}

const LOOPBACK = '127.0.0.1';
/** The size a lab server announces (RFC 1870). */
export const LAB_SMTP_SIZE = 10_240_000;

function needCertificate(options: SmtpServerOptions): IssuedCertificate {
  if (options.certificate === undefined)
    throw new Error(`the lab SMTP server "${options.variant}" needs a certificate`);
  return options.certificate;
}

async function startPackagedServer(options: SmtpServerOptions, name: string): Promise<LabSmtpServer> {
  const commands: string[] = [];
  const certificate = options.variant === 'no-starttls' ? undefined : needCertificate(options);
  const server = new SMTPServer({
    name,
    secure: options.variant === 'implicit-tls',
    hideSTARTTLS: options.variant === 'no-starttls',
    hideREQUIRETLS: false,
    size: LAB_SMTP_SIZE,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    logger: false,
    ...(certificate === undefined ? {} : { key: certificate.key, cert: certificate.chain }),
    onConnect(_session, callback) {
      setTimeout(() => callback(), options.bannerDelayMs ?? 0);
    },
    onAuth(_auth, _session, callback) {
      callback(new Error('the lab accepts no logins'));
    },
  });
  // the package's own handler runs on each connection; this one only logs what it was sent
  // (in plain text only: after STARTTLS the bytes on this socket are TLS records)
  const record = (socket: Socket): void => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      const lines = text.split('\r\n');
      text = lines.pop() ?? '';
      for (const line of lines) {
        commands.push(line);
        if (line.toUpperCase() === 'STARTTLS') return void socket.off('data', onData);
      }
    };
    socket.on('data', onData);
  };
  server.server.on(options.variant === 'implicit-tls' ? 'secureConnection' : 'connection', record);
  server.on('error', () => {});
  const close = tracked(server.server);
  const port = await listen(server.server, LOOPBACK);
  return { host: LOOPBACK, port, commands, close };
}

function ehloAnswer(name: string, keywords: readonly string[]): string {
  const lines = [`${name} greets you`, ...keywords];
  return lines.map((line, index) => `250${index === lines.length - 1 ? ' ' : '-'}${line}\r\n`).join('');
}

/** Speaks SMTP line by line over `socket` (plain or TLS) until QUIT. */
function converse(
  socket: Socket,
  options: SmtpServerOptions,
  name: string,
  secured: boolean,
  commands: string[],
): void {
  const before = ['PIPELINING', `SIZE ${LAB_SMTP_SIZE}`, '8BITMIME', 'STARTTLS'];
  const after =
    options.variant === 'extensions-change'
      ? ['PIPELINING', 'AUTH PLAIN LOGIN', 'STARTTLS']
      : ['PIPELINING', `SIZE ${LAB_SMTP_SIZE}`, '8BITMIME'];
  let text = '';
  const onData = (chunk: Buffer): void => {
    text += chunk.toString('latin1');
    let newline: number;
    while ((newline = text.indexOf('\r\n')) >= 0) {
      const line = text.slice(0, newline);
      text = text.slice(newline + 2);
      commands.push(line);
      const verb = line.split(' ')[0]?.toUpperCase();
      if (verb === 'EHLO') {
        socket.write(
          options.variant === 'ehlo-rejected'
            ? '502 5.5.2 EHLO not implemented, say HELO\r\n'
            : ehloAnswer(name, secured ? after : before),
        );
      } else if (verb === 'HELO') socket.write(`250 ${name}\r\n`);
      else if (verb === 'STARTTLS' && secured) socket.write('503 5.5.1 TLS already active\r\n');
      else if (verb === 'STARTTLS' && options.variant === 'starttls-454')
        socket.write('454 4.7.0 TLS not available due to temporary reason\r\n');
      else if (verb === 'STARTTLS' && options.variant === 'starttls-drop') {
        socket.end('220 2.0.0 Ready to start TLS\r\n');
        return;
      } else if (verb === 'STARTTLS') {
        socket.off('data', onData);
        socket.write('220 2.0.0 Ready to start TLS\r\n');
        const certificate = needCertificate(options);
        const secure = new tls.TLSSocket(socket, {
          isServer: true,
          secureContext: tls.createSecureContext({ key: certificate.key, cert: certificate.chain }),
        });
        secure.on('error', () => {});
        secure.on('secure', () => converse(secure, options, name, true, commands));
        return;
      } else if (verb === 'QUIT') {
        socket.end('221 2.0.0 Bye\r\n');
        return;
      } else socket.write('502 5.5.2 Command not recognised\r\n');
    }
  };
  socket.on('data', onData);
}

async function startScriptedServer(options: SmtpServerOptions, name: string): Promise<LabSmtpServer> {
  const commands: string[] = [];
  const banners: Partial<Record<SmtpLabVariant, string>> = {
    greylist: `421 4.7.0 ${name} Greylisted, please try again later\r\n`,
    'reject-554': `554 5.7.1 ${name} No SMTP service here\r\n`,
  };
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    if (options.variant === 'no-banner') return;
    const timer = setTimeout(() => {
      socket.write(banners[options.variant] ?? `220 ${name} ESMTP lab\r\n`);
      converse(socket, options, name, false, commands);
    }, options.bannerDelayMs ?? 0);
    socket.on('close', () => clearTimeout(timer));
  });
  const close = tracked(server);
  const port = await listen(server, LOOPBACK);
  return { host: LOOPBACK, port, commands, close };
}

/** Starts one lab SMTP server on 127.0.0.1 and a random port. */
export function startSmtpServer(options: SmtpServerOptions): Promise<LabSmtpServer> {
  const name = options.name ?? 'mx.example.test';
  switch (options.variant) {
    case 'starttls':
    case 'no-starttls':
    case 'implicit-tls':
      return startPackagedServer(options, name);
    default:
      return startScriptedServer(options, name);
  }
}
