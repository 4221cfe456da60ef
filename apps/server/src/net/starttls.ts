import type { StarttlsProtocolName } from '@rfckit/standards';
import { NetError } from './errors.ts';
import type { ProbeConnection } from './probe.ts';

/** Protocols whose servers upgrade a plain connection to TLS on request: the list the TLS tools' schemas offer. */
export type StarttlsProtocol = StarttlsProtocolName;

export interface StarttlsOptions {
  /** The name the client announces (EHLO, XMPP `to`). */
  host: string;
  /** The name the client announces for itself in EHLO (RFC 5321 §4.1.1.1). */
  clientName: string;
  /** For each server reply. */
  timeoutMs: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const text = (bytes: Uint8Array): string => decoder.decode(bytes);
const MAX_SHOWN = 200;

function refused(
  protocol: StarttlsProtocol,
  host: string,
  what: string,
  reply: Uint8Array | string,
): NetError {
  const shown = (typeof reply === 'string' ? reply : text(reply))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_SHOWN);
  return new NetError(
    'PROTOCOL_ERROR',
    `${host} did not start TLS over ${protocol.toUpperCase()}: ${what}${shown === '' ? ' (no answer)' : ` (it answered "${shown}")`}`,
  );
}

/** One SMTP/FTP reply as read so far (RFC 5321 §4.2). */
export interface ServerReply {
  /** The whole lines received, without CRLF. */
  lines: string[];
  /** The code of the first line, when it has one. */
  code: number | null;
  /** The last line has the code followed by a space or nothing: the reply is over (§4.2.1). */
  complete: boolean;
  /** A whole line that is not `ddd`, `ddd text` or `ddd-text`: the peer does not speak SMTP. */
  malformed: boolean;
}

/** Reads the bytes received as one reply: multiline replies repeat the code with a hyphen (RFC 5321 §4.2.1). */
export function readServerReply(bytes: Uint8Array): ServerReply {
  const lines = text(bytes).split('\r\n').slice(0, -1);
  const first = /^(\d{3})(?:[ -]|$)/.exec(lines[0] ?? '');
  const malformed = lines.some((line) => !/^\d{3}(?:[ -]|$)/.test(line));
  const last = lines.at(-1);
  return {
    lines,
    code: first === null ? null : Number(first[1]),
    complete: last !== undefined && /^\d{3}( |$)/.test(last),
    malformed,
  };
}

/** An SMTP/FTP reply is complete when its last line has the code followed by a space (RFC 5321 §4.2). */
export function completeReply(bytes: Uint8Array): boolean {
  return readServerReply(bytes).complete;
}

async function reply(
  connection: ProbeConnection,
  protocol: StarttlsProtocol,
  options: StarttlsOptions,
  expect: RegExp,
  what: string,
): Promise<string> {
  const read = await connection.read(completeReply, options.timeoutMs);
  const answer = text(read.bytes);
  const last = answer.trimEnd().split('\r\n').at(-1) ?? '';
  if (read.end !== 'enough' || !expect.test(last)) throw refused(protocol, options.host, what, answer);
  return answer;
}

async function untilLine(
  connection: ProbeConnection,
  protocol: StarttlsProtocol,
  options: StarttlsOptions,
  pattern: RegExp,
  what: string,
): Promise<void> {
  const read = await connection.read(
    (bytes) => pattern.test(text(bytes)) || /\r\n/.test(text(bytes)),
    options.timeoutMs,
  );
  if (!pattern.test(text(read.bytes))) throw refused(protocol, options.host, what, read.bytes);
}

/** SMTP (RFC 3207 §4): greeting 220, EHLO, the STARTTLS keyword in the EHLO answer, STARTTLS, 220. */
async function smtp(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  await reply(connection, 'smtp', options, /^220[ -]/, 'no 220 greeting');
  connection.write(`EHLO ${options.clientName}\r\n`);
  const ehlo = await reply(connection, 'smtp', options, /^250 /, 'EHLO was not accepted');
  if (!/^250[ -]STARTTLS\b/im.test(ehlo))
    throw refused('smtp', options.host, 'STARTTLS is not offered in the EHLO answer', ehlo);
  connection.write('STARTTLS\r\n');
  await reply(connection, 'smtp', options, /^220 /, 'STARTTLS was refused');
}

/** IMAP (RFC 3501 §6.2.1, RFC 2595 §3.1): greeting, `a STARTTLS`, `a OK`. */
async function imap(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  await untilLine(connection, 'imap', options, /^\* (OK|PREAUTH)\b.*\r\n/i, 'no IMAP greeting');
  connection.write('a STARTTLS\r\n');
  const read = await connection.read(
    (bytes) => /^a (OK|NO|BAD)\b.*\r\n/im.test(text(bytes)),
    options.timeoutMs,
  );
  if (!/^a OK\b/im.test(text(read.bytes)))
    throw refused('imap', options.host, 'STARTTLS was refused', read.bytes);
}

/** POP3 (RFC 2595 §4): greeting `+OK`, STLS, `+OK`. */
async function pop3(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  await untilLine(connection, 'pop3', options, /^\+OK\b.*\r\n/, 'no +OK greeting');
  connection.write('STLS\r\n');
  await untilLine(connection, 'pop3', options, /^\+OK\b.*\r\n/, 'STLS was refused');
}

/** A ManageSieve response ends with a line starting OK, NO or BYE (RFC 5804 §1.3, §2). */
const SIEVE_END = /(^|\r\n)(OK|NO|BYE)\b[^\r\n]*\r\n/i;

/** ManageSieve (RFC 5804 §1.7, §2.2): the capability greeting with "STARTTLS", STARTTLS, OK. */
async function sieve(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  const greeting = await connection.read((bytes) => SIEVE_END.test(text(bytes)), options.timeoutMs);
  const capabilities = text(greeting.bytes);
  if (!/(^|\r\n)OK\b/i.test(capabilities))
    throw refused('sieve', options.host, 'no OK after the capability greeting', greeting.bytes);
  if (!/(^|\r\n)"STARTTLS"/i.test(capabilities))
    throw refused('sieve', options.host, 'STARTTLS is not among the capabilities', greeting.bytes);
  connection.write('STARTTLS\r\n');
  const answer = await connection.read((bytes) => SIEVE_END.test(text(bytes)), options.timeoutMs);
  if (!/(^|\r\n)OK\b/i.test(text(answer.bytes)))
    throw refused('sieve', options.host, 'STARTTLS was refused', answer.bytes);
}

/** FTP (RFC 4217 §4): greeting 220, AUTH TLS, 234. */
async function ftp(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  await reply(connection, 'ftp', options, /^220 /, 'no 220 greeting');
  connection.write('AUTH TLS\r\n');
  await reply(connection, 'ftp', options, /^234 /, 'AUTH TLS was refused');
}

/** XMPP (RFC 6120 §5.4.2): stream header, features with <starttls/>, <starttls/>, <proceed/>. */
async function xmpp(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  connection.write(
    `<?xml version='1.0'?><stream:stream to='${options.host}' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>`,
  );
  const features = await connection.read(
    (bytes) => /<\/stream:features>/.test(text(bytes)),
    options.timeoutMs,
  );
  if (!/<starttls\b[^>]*urn:ietf:params:xml:ns:xmpp-tls/.test(text(features.bytes)))
    throw refused('xmpp', options.host, 'the stream features offer no starttls', features.bytes);
  connection.write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>");
  const answer = await connection.read(
    (bytes) => /<(proceed|failure)\b[^>]*\/?>/.test(text(bytes)),
    options.timeoutMs,
  );
  if (!/<proceed\b/.test(text(answer.bytes)))
    throw refused('xmpp', options.host, 'STARTTLS was refused', answer.bytes);
}

// LDAP ExtendedRequest for StartTLS (RFC 4511 §4.14.1): messageID 1, OID 1.3.6.1.4.1.1466.20037
const LDAP_STARTTLS = Uint8Array.from([
  0x30,
  0x1d,
  0x02,
  0x01,
  0x01,
  0x77,
  0x18,
  0x80,
  0x16,
  ...new TextEncoder().encode('1.3.6.1.4.1.1466.20037'),
]);

/** LDAP (RFC 4511 §4.14): the StartTLS extended request; an ExtendedResponse with resultCode 0. */
async function ldap(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  connection.write(LDAP_STARTTLS);
  const read = await connection.read(
    (bytes) => bytes.length >= 2 && bytes.length >= 2 + (bytes[1] ?? 0),
    options.timeoutMs,
  );
  const bytes = read.bytes;
  // LDAPMessage SEQUENCE { messageID INTEGER, [APPLICATION 24] ExtendedResponse { ENUMERATED resultCode … } }
  // (short-form lengths: a StartTLS answer is far below 128 bytes)
  const idLength = bytes[3] ?? 0;
  const op = 4 + idLength;
  const resultCode =
    bytes[0] === 0x30 && bytes[2] === 0x02 && bytes[op] === 0x78 && bytes[op + 2] === 0x0a
      ? bytes[op + 4]
      : undefined;
  if (resultCode !== 0)
    throw refused(
      'ldap',
      options.host,
      `the StartTLS request was answered with result code ${resultCode ?? 'none'}`,
      '',
    );
}

// PostgreSQL SSLRequest: length 8, code 80877103 (PostgreSQL protocol §55.2.10)
const POSTGRES_SSL_REQUEST = Uint8Array.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/** PostgreSQL: SSLRequest, then one byte: `S` to go on with TLS, `N` for no. */
async function postgres(connection: ProbeConnection, options: StarttlsOptions): Promise<void> {
  connection.write(POSTGRES_SSL_REQUEST);
  const read = await connection.read((bytes) => bytes.length >= 1, options.timeoutMs);
  if (read.bytes[0] !== 0x53)
    throw refused('postgres', options.host, 'the server does not accept SSL', read.bytes.subarray(0, 1));
}

const preambles: Record<
  StarttlsProtocol,
  (connection: ProbeConnection, options: StarttlsOptions) => Promise<void>
> = {
  smtp,
  imap,
  pop3,
  sieve,
  ftp,
  xmpp,
  ldap,
  postgres,
};

/** Runs the protocol's upgrade dialogue; after it, the connection carries TLS. Throws PROTOCOL_ERROR. */
export function startTls(
  connection: ProbeConnection,
  protocol: StarttlsProtocol,
  options: StarttlsOptions,
): Promise<void> {
  return preambles[protocol](connection, options);
}
