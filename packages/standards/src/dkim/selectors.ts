/**
 * Selectors worth probing when nobody knows which one a domain signs with. DKIM has no way to list
 * a domain's selectors (RFC 6376 §3.1: the selector comes from the signature's s= tag), so a
 * checker can only try the names that mail providers publish by default. Each entry says where
 * the name comes from; a name several providers use is listed once.
 */
export interface DkimCommonSelector {
  selector: string;
  /** Who publishes keys under this name by default. */
  source: string;
}

export const dkimCommonSelectors: readonly DkimCommonSelector[] = [
  { selector: 'default', source: 'cPanel, Plesk and many self-hosted signers; our generator default' },
  { selector: 'google', source: 'Google Workspace' },
  { selector: 'selector1', source: 'Microsoft 365 (first of its two rotating keys)' },
  { selector: 'selector2', source: 'Microsoft 365 (second of its two rotating keys)' },
  { selector: 'k1', source: 'Mailchimp' },
  { selector: 'k2', source: 'Mailchimp' },
  { selector: 'k3', source: 'Mailchimp' },
  { selector: 's1', source: 'SendGrid (domain authentication)' },
  { selector: 's2', source: 'SendGrid (domain authentication)' },
  { selector: 'mandrill', source: 'Mandrill (Mailchimp Transactional)' },
  { selector: 'mailjet', source: 'Mailjet' },
  { selector: 'amazonses', source: 'Amazon SES (TXT verification)' },
  { selector: 'zoho', source: 'Zoho Mail' },
  { selector: 'zmail', source: 'Zoho Mail' },
  { selector: 'protonmail', source: 'Proton Mail' },
  { selector: 'protonmail2', source: 'Proton Mail' },
  { selector: 'protonmail3', source: 'Proton Mail' },
  { selector: 'fm1', source: 'Fastmail' },
  { selector: 'fm2', source: 'Fastmail' },
  { selector: 'fm3', source: 'Fastmail' },
  { selector: 'sig1', source: 'iCloud+ custom email domains' },
  { selector: 'everlytickey1', source: 'Everlytic' },
  { selector: 'everlytickey2', source: 'Everlytic' },
  { selector: 'cm', source: 'Campaign Monitor' },
  { selector: 'pm', source: "Common in checkers' lists (Postmark's own selectors carry a date prefix)" },
  { selector: 'mte1', source: "Common in checkers' lists; provider not confirmed" },
  { selector: 'brevo1', source: 'Brevo (formerly Sendinblue)' },
  { selector: 'brevo2', source: 'Brevo (formerly Sendinblue)' },
  { selector: 'litesrv', source: 'MailerLite' },
  { selector: 'krs', source: 'Mailgun' },
  { selector: 'mx', source: 'Mailgun and others' },
  { selector: 'smtp', source: 'Mailgun and generic mail servers' },
  { selector: 'mail', source: 'Brevo, Yandex and generic mail servers' },
  { selector: 'dkim', source: 'Generic name chosen by many administrators' },
];
