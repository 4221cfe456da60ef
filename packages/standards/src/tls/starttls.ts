// The STARTTLS protocols in words, and which one a plain-text greeting belongs to, so that a scan
// of a port that greets in plain text can say which STARTTLS to choose.
import type { StarttlsProtocolName } from './scan-report.ts';

/** Each STARTTLS protocol as people name it. */
export const starttlsProtocolNames: Record<StarttlsProtocolName, string> = {
  smtp: 'SMTP',
  imap: 'IMAP',
  pop3: 'POP3',
  sieve: 'ManageSieve',
  ftp: 'FTP',
  xmpp: 'XMPP',
  ldap: 'LDAP',
  postgres: 'PostgreSQL',
};

/**
 * The STARTTLS protocol whose server speaks first with this greeting: `220 … FTP…` FTP (RFC 959),
 * another `220 ` SMTP (RFC 5321 §4.2), `* OK` IMAP (RFC 9051 §7.1.1), `+OK` POP3 (RFC 1939 §4).
 * XMPP, LDAP and PostgreSQL servers wait for the client, so no greeting names them.
 */
export function greetingProtocol(greeting: string): StarttlsProtocolName | undefined {
  const text = greeting.trimStart();
  if (/^220[ -]/.test(text)) return /ftp/i.test(text) ? 'ftp' : 'smtp';
  if (/^\* OK\b/i.test(text)) return 'imap';
  if (/^\+OK\b/i.test(text)) return 'pop3';
  return undefined;
}

/** `it answered like an SMTP server: choose STARTTLS SMTP`, or undefined for an answer no STARTTLS protocol greets with. */
export function starttlsHint(greeting: string): string | undefined {
  const protocol = greetingProtocol(greeting);
  if (protocol === undefined) return undefined;
  const name = starttlsProtocolNames[protocol];
  // 'an SMTP', 'an IMAP', 'an FTP' (said letter by letter), but 'a POP3'
  const article = protocol === 'pop3' ? 'a' : 'an';
  return `it answered like ${article} ${name} server: choose STARTTLS ${name}`;
}
