/** The mail services RFC 7817 covers, with their ports, TLS mode and SRV service names. */

export const smtpTlsServiceTypes = ['smtp', 'imap', 'imaps', 'pop3', 'pop3s', 'sieve'] as const;
export type SmtpTlsServiceType = (typeof smtpTlsServiceTypes)[number];

/** How TLS starts: STARTTLS on the plain port, or TLS from the first byte (RFC 8314 §3). */
export type TlsStart = 'starttls' | 'implicit';

export interface MailService {
  label: string;
  /** The port clients use by default. */
  port: number;
  /** Other ports the service is commonly offered on. */
  otherPorts: readonly number[];
  /** The protocol whose STARTTLS dialogue opens TLS, for the live check. */
  protocol: 'smtp' | 'imap' | 'pop3' | 'sieve';
  rfc: string;
}

export const mailServices: Readonly<Record<SmtpTlsServiceType, MailService>> = {
  smtp: { label: 'SMTP submission', port: 587, otherPorts: [465, 25], protocol: 'smtp', rfc: 'RFC 6409' },
  imap: { label: 'IMAP', port: 143, otherPorts: [], protocol: 'imap', rfc: 'RFC 9051' },
  imaps: {
    label: 'IMAP over implicit TLS',
    port: 993,
    otherPorts: [],
    protocol: 'imap',
    rfc: 'RFC 8314 §3.3',
  },
  pop3: { label: 'POP3', port: 110, otherPorts: [], protocol: 'pop3', rfc: 'RFC 1939' },
  pop3s: {
    label: 'POP3 over implicit TLS',
    port: 995,
    otherPorts: [],
    protocol: 'pop3',
    rfc: 'RFC 8314 §3.3',
  },
  sieve: { label: 'ManageSieve', port: 4190, otherPorts: [], protocol: 'sieve', rfc: 'RFC 5804' },
};

/** Ports where TLS starts at once (RFC 8314 §3.3, §7.3): submissions, imaps, pop3s. */
export const implicitTlsPorts: readonly number[] = [465, 993, 995];

/** Port 25: MTA-to-MTA relay, outside RFC 7817 (RFC 7817 §1). */
export const MTA_PORT = 25;

export function tlsStartOf(serviceType: SmtpTlsServiceType, port: number): TlsStart {
  if (implicitTlsPorts.includes(port)) return 'implicit';
  return serviceType === 'imaps' || serviceType === 'pop3s' ? 'implicit' : 'starttls';
}

/**
 * The SRV service label of the service (RFC 6186 §3, RFC 8314 §5.1, RFC 5804 §1.8), without the
 * leading underscore; null for MTA relay on port 25, which has no SRV record (mail uses MX).
 */
export function srvServiceOf(serviceType: SmtpTlsServiceType, port: number): string | null {
  switch (serviceType) {
    case 'smtp':
      if (port === MTA_PORT) return null;
      return port === 465 ? 'submissions' : 'submission';
    case 'imap':
      return port === 993 ? 'imaps' : 'imap';
    case 'pop3':
      return port === 995 ? 'pop3s' : 'pop3';
    default:
      return serviceType;
  }
}

/** The RFC that defines the SRV service label. */
export function srvRfcOf(service: string): string {
  if (service === 'submissions') return 'RFC 8314 §5.1';
  if (service === 'sieve') return 'RFC 5804 §1.8';
  return 'RFC 6186 §3';
}
