import type { ToolOperation } from './core/operation.ts';

/** The six sidebar groups of the spec, in display order. */
export const toolGroups = [
  'Domain Security',
  'Email Security',
  'Web Security',
  'Application Security',
  'Security Analysis',
  'Utilities',
] as const;

export type ToolGroup = (typeof toolGroups)[number];

export interface ToolDefinition {
  /** Stable id; also the last segment of the route. */
  id: string;
  name: string;
  group: ToolGroup;
  route: `/tools/${string}`;
  /** Standards the tool implements, e.g. `RFC 4034`. */
  rfcs: readonly string[];
  /** The standard is still an Internet-Draft or experimental (shown as "draft"). */
  draft: boolean;
  /** One line for menus and the dashboard. */
  summary: string;
  /**
   * Loads the tool's operation table (`<id>/operations.ts`); absent until the tool is built. A
   * loader, so the first screen, which lists every tool, carries none of their schemas.
   */
  operations: (() => Promise<OperationTable>) | undefined;
}

export type OperationTable = Readonly<Record<string, ToolOperation>>;

interface ToolOptions {
  draft?: boolean;
  operations?: () => Promise<OperationTable>;
}

function tool(
  id: string,
  name: string,
  group: ToolGroup,
  rfcs: readonly string[],
  summary: string,
  { draft = false, operations }: ToolOptions = {},
): ToolDefinition {
  return { id, name, group, route: `/tools/${id}`, rfcs, draft, summary, operations };
}

/** Every tool of both spec documents: the one list that feeds sidebar, routes, dashboard and docs. */
export const tools: readonly ToolDefinition[] = [
  tool(
    'dnskey',
    'DNSKEY',
    'Domain Security',
    [
      'RFC 4034',
      'RFC 4035',
      'RFC 4509',
      'RFC 5155',
      'RFC 6605',
      'RFC 8080',
      'RFC 8624',
      'RFC 9276',
      'RFC 9905',
    ],
    'Check DNSSEC keys: flags, algorithm, key tag and DS digests.',
    { operations: () => import('./dnskey/operations.ts').then((module) => module.dnskeyOperations) },
  ),
  tool(
    'dane',
    'DANE / TLSA',
    'Domain Security',
    ['RFC 6698', 'RFC 7671', 'RFC 7672'],
    'Understand and build TLSA records that pin TLS certificates in DNS.',
    { operations: () => import('./dane/operations.ts').then((module) => module.daneOperations) },
  ),
  tool('srv', 'DNS SRV', 'Domain Security', ['RFC 2782'], 'Build, validate and look up SRV service records.'),
  tool(
    'spf',
    'SPF',
    'Email Security',
    ['RFC 7208'],
    'Evaluate, lint and build Sender Policy Framework records.',
    { operations: () => import('./spf/operations.ts').then((module) => module.spfOperations) },
  ),
  tool(
    'dkim',
    'DKIM',
    'Email Security',
    ['RFC 6376', 'RFC 8301', 'RFC 8463'],
    'Generate and validate DKIM key records and signatures.',
    { operations: () => import('./dkim/operations.ts').then((module) => module.dkimOperations) },
  ),
  tool(
    'dmarc',
    'DMARC',
    'Email Security',
    ['RFC 7489', 'RFC 9989'],
    'Build and validate DMARC policies and reporting.',
    { operations: () => import('./dmarc/operations.ts').then((module) => module.dmarcOperations) },
  ),
  tool(
    'mta-sts',
    'MTA-STS',
    'Email Security',
    ['RFC 8461'],
    'Build and check MTA-STS policies and their DNS record.',
    { operations: () => import('./mta-sts/operations.ts').then((module) => module.mtaStsOperations) },
  ),
  tool(
    'tls-rpt',
    'TLS-RPT',
    'Email Security',
    ['RFC 8460'],
    'Build and validate SMTP TLS reporting records.',
  ),
  tool(
    'bimi',
    'BIMI',
    'Email Security',
    ['draft-brand-indicators-for-message-identification'],
    'Build and validate brand indicator records and logos.',
    { draft: true },
  ),
  tool(
    'arc',
    'ARC',
    'Email Security',
    ['RFC 8617', 'RFC 6376', 'RFC 8301', 'RFC 8463'],
    'Generate and validate Authenticated Received Chain headers.',
    { draft: true, operations: () => import('./arc/operations.ts').then((module) => module.arcOperations) },
  ),
  tool(
    'smtp-tls',
    'SMTP TLS Identity',
    'Email Security',
    ['RFC 7817', 'RFC 6125'],
    'Check a mail server certificate against RFC 7817 identity rules.',
  ),
  tool(
    'smtp-session-inspector',
    'SMTP Session Inspector',
    'Email Security',
    ['RFC 5321', 'RFC 3207', 'RFC 8314', 'RFC 7505'],
    'Watch a real SMTP session with a mail server, STARTTLS included.',
    {
      operations: () =>
        import('./smtp-session-inspector/operations.ts').then(
          (module) => module.smtpSessionInspectorOperations,
        ),
    },
  ),
  tool(
    'pgp',
    'PGP Keys',
    'Email Security',
    ['RFC 9580', 'RFC 4880'],
    'Generate and validate OpenPGP keys in the browser.',
  ),
  tool(
    'http-headers',
    'HTTP Security Headers',
    'Web Security',
    ['RFC 6797', 'RFC 7034', 'W3C CSP3'],
    'Analyse the security headers a site sends.',
    {
      operations: () => import('./http-headers/operations.ts').then((module) => module.httpHeadersOperations),
    },
  ),
  tool(
    'tls-cipher',
    'TLS Cipher Suites',
    'Web Security',
    ['RFC 8446', 'RFC 9325'],
    'Test a server’s TLS versions and cipher suites.',
    {
      operations: () => import('./tls/operations.ts').then((module) => module.tlsCipherOperations),
    },
  ),
  tool(
    'security-txt',
    'security.txt',
    'Web Security',
    ['RFC 9116'],
    'Generate and validate security.txt files.',
    {
      operations: () => import('./security-txt/operations.ts').then((module) => module.securityTxtOperations),
    },
  ),
  tool(
    'host-meta',
    'Host Metadata',
    'Web Security',
    ['RFC 6415'],
    'Generate and validate host-meta XRD documents.',
  ),
  tool(
    'webfinger',
    'WebFinger',
    'Application Security',
    ['RFC 7033'],
    'Look up WebFinger resources and build responses.',
  ),
  tool(
    'oauth-metadata',
    'OAuth Server Metadata',
    'Application Security',
    ['RFC 8414'],
    'Generate, validate and discover authorization server metadata.',
  ),
  tool(
    'jwk',
    'JSON Web Key',
    'Application Security',
    ['RFC 7517', 'RFC 7518', 'RFC 7638'],
    'Generate and validate JWKs and their thumbprints.',
  ),
  tool(
    'vulnerability-detection',
    'Vulnerability Detection',
    'Security Analysis',
    ['RFC 9116', 'RFC 6797', 'RFC 7208'],
    'Scan a domain with real checks and list what is wrong.',
  ),
  tool(
    'security-scoring',
    'Security Scoring',
    'Security Analysis',
    ['NIST CSF 2.0', 'ISO/IEC 27001:2022'],
    'Score a target’s security from real checks across six domains.',
  ),
  tool(
    'mime',
    'MIME Types',
    'Utilities',
    ['RFC 2045', 'RFC 2046', 'RFC 6838'],
    'Build and validate media types with parameters.',
  ),
  tool(
    'sha256-hasher',
    'SHA-256 Hasher',
    'Utilities',
    ['FIPS 180-4'],
    'Hash text and files with SHA-256 and verify digests.',
  ),
  tool(
    'date-generator',
    'Date Formats',
    'Utilities',
    ['RFC 3339', 'RFC 5322', 'ISO 8601'],
    'Format and parse dates in the formats internet standards use.',
  ),
];

export function findTool(id: string): ToolDefinition | undefined {
  return tools.find((t) => t.id === id);
}
