/**
 * Mail providers whose SPF include is published in their setup documentation. Each include was
 * checked against the provider's guide (2026-11); `note` says where the provider wants the record
 * when that is not the domain's apex.
 */
export interface SpfPreset {
  id: string;
  name: string;
  include: string;
  note?: string;
}

export const spfPresets: readonly SpfPreset[] = [
  { id: 'google', name: 'Google Workspace', include: '_spf.google.com' },
  { id: 'microsoft', name: 'Microsoft 365', include: 'spf.protection.outlook.com' },
  {
    id: 'ses',
    name: 'Amazon SES',
    include: 'amazonses.com',
    note: 'Needed only with a custom MAIL FROM domain: publish the record at that subdomain.',
  },
  {
    id: 'mailgun',
    name: 'Mailgun',
    include: 'mailgun.org',
    note: 'Publish it at the sending subdomain you added in Mailgun, e.g. mg.example.com.',
  },
  { id: 'sendgrid', name: 'SendGrid', include: 'sendgrid.net' },
  {
    id: 'zoho',
    name: 'Zoho Mail',
    include: 'zoho.com',
    note: 'For the US data centre; other regions use their own (e.g. zoho.eu, zoho.in).',
  },
];
