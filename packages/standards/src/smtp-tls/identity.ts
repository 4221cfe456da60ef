import type { Diagnostic } from '../core/diagnostic.ts';
import { domainToAscii, domainToUnicode, hasALabel } from '../core/punycode.ts';
import {
  presentedNameMatches,
  readPresentedName,
  type PresentedName,
  type PresentedNameProblem,
} from '../core/service-identity.ts';
import type {
  SmtpTlsCertificateDetails,
  SmtpTlsCertificateInfo,
  SmtpTlsIdentifierCheck,
  SmtpTlsValidation,
} from './schema.ts';
import { mailServices, MTA_PORT, srvServiceOf, tlsStartOf, type SmtpTlsServiceType } from './services.ts';

export interface SmtpTlsIdentityInput {
  serverHostname: string;
  emailDomain: string;
  serviceType: SmtpTlsServiceType;
  port?: number | undefined;
  includeSRV: boolean;
  presented: SmtpTlsCertificateInfo;
  source: SmtpTlsValidation['source'];
  certificate?: SmtpTlsCertificateDetails | null;
  live?: SmtpTlsValidation['live'];
  /** For the validity period of a certificate read from PEM or fetched. */
  now?: Date;
}

const problemWords: Record<PresentedNameProblem, string> = {
  empty: 'it is empty',
  'partial-wildcard':
    'its wildcard is part of a label; RFC 7817 §3 allows "*" only as the complete left-most label',
  'a-label-wildcard':
    'its wildcard sits inside an internationalised A-label (xn--); RFC 6125 §6.4.3 says not to match it',
  'wildcard-not-left-most': 'its wildcard is not the left-most label (RFC 7817 §3, RFC 6125 §6.4.3)',
  'wildcard-too-broad':
    'its wildcard covers a top-level or public-suffix domain, names of other owners (RFC 6125 §7.2)',
  'invalid-a-label': 'its xn-- label is not valid Punycode (RFC 3492)',
};

function check(name: PresentedName, reference: string | null): SmtpTlsIdentifierCheck {
  return {
    presented: name.presented,
    normalized: name.name,
    unicode: hasALabel(name.name) ? domainToUnicode(name.name) : null,
    matches: reference !== null && presentedNameMatches(name, reference),
    problem: name.problem === null ? null : problemWords[name.problem],
  };
}

/** An SRV-ID `_Service.Name` (RFC 4985 §2) split into its service label and its name. */
function splitSrvId(presented: string): { service: string; name: PresentedName } | null {
  const match = /^_([^.]+)\.(.+)$/.exec(presented.trim());
  if (!match) return null;
  return { service: (match[1] ?? '').toLowerCase(), name: readPresentedName(match[2] ?? '') };
}

function quoteList(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.map((name) => `'${name}'`).join(', ');
}

/**
 * RFC 7817 §3 with RFC 6125 §6: the server hostname is the DNS-ID reference identifier; with SRV
 * discovery (RFC 6186) the email domain is also one, compared with SRV-IDs of the service; a CN is
 * looked at only when the certificate has no DNS-ID and no SRV-ID (RFC 6125 §6.4.4).
 */
export function validateSmtpTlsIdentity(input: SmtpTlsIdentityInput): SmtpTlsValidation {
  const service = mailServices[input.serviceType];
  const port = input.port ?? service.port;
  const hostAscii = domainToAscii(input.serverHostname);
  const domainAscii = domainToAscii(input.emailDomain);
  const hostname = hostAscii.ok ? hostAscii.name : input.serverHostname.trim().toLowerCase();
  const emailDomain = domainAscii.ok ? domainAscii.name : input.emailDomain.trim().toLowerCase();
  const covered = !(input.serviceType === 'smtp' && port === MTA_PORT);
  const srvService = srvServiceOf(input.serviceType, port);
  const srvReference = input.includeSRV && srvService !== null ? `_${srvService}.${emailDomain}` : null;
  const issues: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];

  const dnsIds = input.presented.dnsIds.map((presented) => check(readPresentedName(presented), hostname));
  const srvIds = input.presented.srvIds.map((presented): SmtpTlsIdentifierCheck => {
    const split = splitSrvId(presented);
    if (split === null)
      return {
        presented,
        normalized: presented.trim().toLowerCase(),
        unicode: null,
        matches: false,
        problem: 'it is not of the form _service.domain (RFC 4985 §2)',
      };
    const named = check(split.name, srvReference === null ? null : emailDomain);
    return {
      ...named,
      presented,
      normalized: `_${split.service}.${split.name.name}`,
      unicode: named.unicode === null ? null : `_${split.service}.${named.unicode}`,
      matches: named.matches && split.service === srvService,
    };
  });
  const commonNameText = input.presented.commonName?.trim() ?? '';
  // RFC 6125 §6.4.4: a CN-ID is a fallback only for a certificate without DNS-ID and SRV-ID
  const cnUsable = input.presented.dnsIds.length === 0 && input.presented.srvIds.length === 0;
  const commonName =
    commonNameText === '' ? null : { ...check(readPresentedName(commonNameText), hostname), used: cnUsable };

  const dnsIdCompliant = dnsIds.some((id) => id.matches);
  const srvIdMatched = srvIds.some((id) => id.matches);
  const srvIdCompliant = srvReference === null || srvIdMatched;
  // a CN beside subjectAltName identifiers is never looked at, so it cannot be wrong (RFC 6125 §6.4.4)
  const cnIdCompliant = commonName === null || !commonName.used || commonName.matches;
  const matchedBy = dnsIdCompliant
    ? 'dns-id'
    : srvReference !== null && srvIdMatched
      ? 'srv-id'
      : commonName !== null && commonName.used && commonName.matches
        ? 'cn-id'
        : null;
  const rfc7817Compliant = matchedBy !== null;
  const hostShown = hasALabel(hostname) ? `${hostname} (${domainToUnicode(hostname)})` : hostname;
  const dnsIdFix = `Reissue the certificate with the DNS-ID (subjectAltName dNSName) ${hostname}`;

  if (!covered)
    warnings.push({
      severity: 'warning',
      code: 'SMTP_TLS_MTA_RELAY_OUT_OF_SCOPE',
      message:
        'Port 25 is relay between mail servers (MTA to MTA). RFC 7817 covers submission, IMAP, POP and ManageSieve clients; ' +
        'a sending MTA authenticates a receiving server by MTA-STS (RFC 8461) or DANE (RFC 7672), not by these rules.',
      rfc: 'RFC 7817 §1',
      fix: 'Check the MX hosts with the MTA-STS tool (/tools/mta-sts) and the DANE tool (/tools/dane)',
    });

  if (input.presented.dnsIds.length === 0 && input.presented.srvIds.length === 0 && commonName === null)
    issues.push({
      severity: 'error',
      code: 'SMTP_TLS_NO_IDENTIFIERS',
      message: 'The certificate presents no identifier at all: no DNS-ID, no SRV-ID and no CN',
      requirement: 'MUST',
      rfc: 'RFC 7817 §3',
      fix: dnsIdFix,
    });
  else if (!rfc7817Compliant)
    issues.push({
      severity: 'error',
      code: 'SMTP_TLS_NO_MATCHING_IDENTIFIER',
      message:
        `No identifier of the certificate matches ${hostShown}` +
        (srvReference === null ? '' : ` or the SRV-ID ${srvReference}`) +
        `: DNS-IDs ${quoteList(input.presented.dnsIds)}, SRV-IDs ${quoteList(input.presented.srvIds)}` +
        (commonName === null
          ? ''
          : `, CN '${commonName.presented}'${commonName.used ? '' : ' (not used: the certificate has subjectAltName identifiers, RFC 6125 §6.4.4)'}`) +
        '. A client following RFC 7817 refuses the connection.',
      requirement: 'MUST',
      rfc: 'RFC 7817 §3, RFC 6125 §6.6',
      fix: srvReference === null ? dnsIdFix : `${dnsIdFix}, and the SRV-ID (SRVName) ${srvReference}`,
    });

  if (matchedBy === 'cn-id')
    warnings.push({
      severity: 'warning',
      code: 'SMTP_TLS_CN_ONLY',
      message:
        `The certificate names ${commonNameText} only in its subject CN. RFC 7817 §3 lets clients use a CN-ID for ` +
        'backward compatibility (MAY), but clients need not, and many current ones do not.',
      requirement: 'MAY',
      rfc: 'RFC 7817 §3, RFC 6125 §6.4.4',
      fix: dnsIdFix,
    });

  if (srvReference !== null && !srvIdMatched && dnsIdCompliant)
    warnings.push({
      severity: 'warning',
      code: 'SMTP_TLS_NO_SRV_ID',
      message:
        `No SRV-ID matches ${srvReference}. A client that found ${hostname} by the SRV record of ${emailDomain} ` +
        '(RFC 6186) may trust that host name only if the SRV answer was DNSSEC-validated or the user confirmed it.',
      requirement: 'SHOULD',
      rfc: 'RFC 7817 §3, RFC 6186 §6',
      fix: `Add the SRV-ID ${srvReference} to the certificate (subjectAltName otherName 1.3.6.1.5.5.7.8.7, RFC 4985), or sign the zone with DNSSEC`,
    });

  for (const id of [...dnsIds, ...srvIds]) {
    if (id.problem !== null)
      warnings.push({
        severity: 'warning',
        code: 'SMTP_TLS_UNUSABLE_IDENTIFIER',
        message: `The identifier '${id.presented}' can never match: ${id.problem}`,
        requirement: 'MUST NOT',
        rfc: 'RFC 7817 §3, RFC 6125 §6.4.3',
        fix: 'Replace it with the exact host name, or a wildcard "*." in front of the parent domain',
      });
  }
  for (const presented of input.presented.dnsIds) {
    if (/[^\p{ASCII}]/u.test(presented))
      warnings.push({
        severity: 'warning',
        code: 'SMTP_TLS_U_LABEL_IN_CERTIFICATE',
        message: `The DNS-ID '${presented}' holds Unicode: a certificate carries internationalised names as A-labels (xn--)`,
        requirement: 'MUST',
        rfc: 'RFC 5280 §7.2',
        fix: `Reissue with '${readPresentedName(presented).name}'`,
      });
  }

  if (input.certificate) {
    const now = input.now ?? new Date();
    const { notAfter, notBefore } = input.certificate;
    if (notAfter !== null && new Date(notAfter) < now)
      issues.push({
        severity: 'error',
        code: 'SMTP_TLS_CERTIFICATE_EXPIRED',
        message: `The certificate expired on ${notAfter.slice(0, 10)}: clients refuse it whatever names it holds`,
        requirement: 'MUST',
        rfc: 'RFC 5280 §4.1.2.5, §6.1.3',
        fix: 'Renew the certificate and install it on the server',
      });
    else if (notBefore !== null && new Date(notBefore) > now)
      issues.push({
        severity: 'error',
        code: 'SMTP_TLS_CERTIFICATE_NOT_YET_VALID',
        message: `The certificate is not valid before ${notBefore.slice(0, 10)}`,
        requirement: 'MUST',
        rfc: 'RFC 5280 §4.1.2.5, §6.1.3',
        fix: 'Check the server clock and the certificate’s validity period',
      });
    if (input.certificate.uriIds.length > 0)
      warnings.push({
        severity: 'warning',
        code: 'SMTP_TLS_URI_ID_IGNORED',
        message: `The certificate has URI-IDs (${input.certificate.uriIds.join(', ')}), which email clients must not use to identify the server`,
        requirement: 'MUST NOT',
        rfc: 'RFC 7817 §3',
        fix: 'Identify the server by DNS-ID (and SRV-ID); URI-IDs may stay for other protocols',
      });
  }

  const status = issues.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'success';
  return {
    status,
    validationSummary: { dnsIdCompliant, srvIdCompliant, cnIdCompliant, rfc7817Compliant },
    issues,
    warnings,
    matchedBy,
    referenceIdentifiers: {
      dnsId: hostname,
      dnsIdUnicode: hasALabel(hostname) ? domainToUnicode(hostname) : null,
      srvIds: srvReference === null ? [] : [srvReference],
    },
    presented: { dnsIds, srvIds, commonName },
    scope: {
      serviceType: input.serviceType,
      port,
      tls: tlsStartOf(input.serviceType, port),
      coveredByRfc7817: covered,
    },
    source: input.source,
    certificate: input.certificate ?? null,
    live: input.live ?? null,
  };
}
