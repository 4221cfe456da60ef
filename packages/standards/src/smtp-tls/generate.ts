import type { Diagnostic } from '../core/diagnostic.ts';
import { domainToAscii, domainToUnicode, hasALabel } from '../core/punycode.ts';
import { readPresentedName } from '../core/service-identity.ts';
import { OID_SRV_NAME } from './certificate.ts';
import type { SmtpTlsGenerateBody, SmtpTlsGeneration } from './schema.ts';
import { mailServices, MTA_PORT, srvRfcOf, srvServiceOf, tlsStartOf } from './services.ts';

/** TTL of the generated records: an hour, easy to change while setting up. */
const RECORD_TTL = 3600;

const ascii = (name: string): string => {
  const converted = domainToAscii(name);
  return converted.ok ? converted.name : name.trim().toLowerCase();
};

/**
 * The certificate names and DNS records a mail service needs for clients to verify it by RFC 7817 §3:
 * the host name as DNS-ID, the SRV-ID of the service at the email domain when it is published by SRV
 * (RFC 6186, RFC 8314 §5.1, RFC 5804 §1.8), the SRV records themselves, and a pointer to TLSA.
 */
export function generateSmtpTls(body: SmtpTlsGenerateBody): SmtpTlsGeneration {
  const service = mailServices[body.serviceType];
  const port = body.port ?? service.port;
  const hostname = ascii(body.serverHostname);
  const emailDomain = ascii(body.emailDomain);
  const tls = tlsStartOf(body.serviceType, port);
  const srvService = srvServiceOf(body.serviceType, port);
  const relay = body.serviceType === 'smtp' && port === MTA_PORT;
  const notes: Diagnostic[] = [];

  const dnsIds = [hostname];
  if (body.enableWildcard) {
    const wildcard = `*.${hostname.slice(hostname.indexOf('.') + 1)}`;
    const read = readPresentedName(wildcard);
    if (read.problem === null) {
      dnsIds.push(wildcard);
      notes.push({
        severity: 'info',
        code: 'SMTP_TLS_WILDCARD_SCOPE',
        message: `${wildcard} also stands for every other host under ${wildcard.slice(2)}: a key stolen from any of them impersonates this server`,
        rfc: 'RFC 7817 §3, RFC 6125 §7.2',
        fix: 'Prefer exact host names; keep the wildcard’s key only on hosts you run',
      });
    } else {
      notes.push({
        severity: 'warning',
        code: 'SMTP_TLS_WILDCARD_TOO_BROAD',
        message: `No wildcard added: ${wildcard} would cover a public suffix, which clients refuse to match`,
        rfc: 'RFC 6125 §7.2',
        fix: 'Use the exact host name',
      });
    }
  }
  const srvIds = body.includeSRV && srvService !== null ? [`_${srvService}.${emailDomain}`] : [];

  const dnsRecords: SmtpTlsGeneration['dnsRecords'] = [];
  if (relay) {
    dnsRecords.push({
      type: 'MX',
      name: `${emailDomain}.`,
      value: `10 ${hostname}.`,
      zoneLine: `${emailDomain}. ${RECORD_TTL} IN MX 10 ${hostname}.`,
      purpose: `Mail for ${emailDomain} is delivered to ${hostname} on port 25`,
      rfc: 'RFC 5321 §5.1',
    });
    notes.push({
      severity: 'warning',
      code: 'SMTP_TLS_MTA_RELAY_OUT_OF_SCOPE',
      message:
        'Port 25 is relay between mail servers: RFC 7817 does not apply. Sending MTAs authenticate the receiving server by MTA-STS (RFC 8461) or DANE (RFC 7672).',
      rfc: 'RFC 7817 §1',
      fix: 'Publish MTA-STS (/tools/mta-sts) or DANE TLSA records (/tools/dane) for the MX hosts',
    });
  } else if (body.includeSRV && srvService !== null) {
    const owner = `_${srvService}._tcp.${emailDomain}.`;
    const value = `0 1 ${port} ${hostname}.`;
    dnsRecords.push({
      type: 'SRV',
      name: owner,
      value,
      zoneLine: `${owner} ${RECORD_TTL} IN SRV ${value}`,
      purpose: `Mail clients of ${emailDomain} find ${service.label} at ${hostname}:${port}`,
      rfc: srvRfcOf(srvService),
    });
    notes.push({
      severity: 'info',
      code: 'SMTP_TLS_SRV_DNSSEC',
      message: `A client that finds ${hostname} by this SRV record may use that name as reference identifier only if the answer is DNSSEC-validated; otherwise it checks the SRV-ID ${srvIds[0] ?? ''}`,
      rfc: 'RFC 7817 §3, RFC 6186 §6',
      fix: `Sign ${emailDomain} with DNSSEC, and ask the CA for the SRV-ID (few public CAs issue SRVName; a private CA can)`,
    });
  }
  const tlsaOwner = `_${port}._tcp.${hostname}.`;
  dnsRecords.push({
    type: 'TLSA',
    name: tlsaOwner,
    value: null,
    zoneLine: null,
    purpose:
      'Optional DANE: pins the certificate or key in DNSSEC-signed DNS. Generate the record from the certificate with the DANE tool (/tools/dane).',
    rfc: relay ? 'RFC 7672 §3' : 'RFC 6698 §3, RFC 7671',
  });

  if (!body.enableSNI)
    notes.push({
      severity: 'info',
      code: 'SMTP_TLS_NO_SNI',
      message: `Without SNI the server picks its certificate without knowing the name asked for: one certificate on ${hostname}:${port} must carry every name the address serves`,
      rfc: 'RFC 6066 §3',
      fix: 'Let clients send server_name; it costs nothing and lets the server choose the right certificate',
    });

  const sanEntries = [
    ...dnsIds.map((name) => `DNS:${name}`),
    ...srvIds.map((name) => `otherName:${OID_SRV_NAME};IA5STRING:${name}`),
  ];
  const opensslConfig = [
    '[req]',
    'prompt = no',
    'distinguished_name = dn',
    'req_extensions = ext',
    '',
    '[dn]',
    `CN = ${hostname}`,
    '',
    '[ext]',
    `subjectAltName = ${sanEntries.join(', ')}`,
    'extendedKeyUsage = serverAuth',
    '',
  ].join('\n');
  const fileStem = hostname.replace(/[^a-z0-9.-]/g, '_');
  const shownHost = hasALabel(hostname) ? `${hostname} (${domainToUnicode(hostname)})` : hostname;
  return {
    status: notes.some((note) => note.severity === 'warning') ? 'warning' : 'success',
    message: `${relay ? 'SMTP relay (MTA-to-MTA)' : service.label} on ${shownHost}:${port} (${tls === 'implicit' ? 'implicit TLS' : 'STARTTLS'}) for ${emailDomain}: the certificate needs ${[...dnsIds, ...srvIds].join(', ')}`,
    serverHostname: hostname,
    emailDomain,
    serviceType: body.serviceType,
    port,
    tls,
    sni: body.enableSNI ? hostname : null,
    certificate: {
      commonName: hostname,
      dnsIds,
      srvIds,
      opensslConfig,
      opensslCommand: `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ${fileStem}.key -out ${fileStem}.csr -config ${fileStem}.cnf`,
    },
    dnsRecords,
    notes,
  };
}
