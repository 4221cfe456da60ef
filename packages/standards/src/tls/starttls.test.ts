import { describe, expect, it } from 'vitest';
import { greetingProtocol, starttlsHint } from './starttls.ts';

// Greetings as real servers send them: Postfix, vsftpd, ProFTPD, Dovecot IMAP and POP3.
describe('greetingProtocol', () => {
  it.each([
    ['220 mail.example.com ESMTP Postfix', 'smtp'],
    ['220-mx.example.com Microsoft ESMTP MAIL Service ready', 'smtp'],
    ['220 (vsFTPd 3.0.5)', 'ftp'],
    ['220 ProFTPD Server (Debian) [192.0.2.1]', 'ftp'],
    ['* OK [CAPABILITY IMAP4rev1 STARTTLS] Dovecot ready.', 'imap'],
    ['+OK Dovecot ready.', 'pop3'],
  ])('%j is %s', (greeting, protocol) => expect(greetingProtocol(greeting)).toBe(protocol));

  it.each(['SSH-2.0-OpenSSH_9.6', 'HTTP/1.1 400 Bad Request', '2200 bytes without a ServerHello', ''])(
    'names no protocol for %j',
    (answer) => expect(greetingProtocol(answer)).toBeUndefined(),
  );
});

describe('starttlsHint', () => {
  it.each([
    ['220 mail.example.com ESMTP', 'it answered like an SMTP server: choose STARTTLS SMTP'],
    ['* OK IMAP ready', 'it answered like an IMAP server: choose STARTTLS IMAP'],
    ['+OK POP3 ready', 'it answered like a POP3 server: choose STARTTLS POP3'],
    ['220 FTP server ready', 'it answered like an FTP server: choose STARTTLS FTP'],
  ])('%j → %s', (greeting, hint) => expect(starttlsHint(greeting)).toBe(hint));

  it('has no hint for an answer no STARTTLS protocol greets with', () => {
    expect(starttlsHint('SSH-2.0-OpenSSH_9.6')).toBeUndefined();
  });
});
