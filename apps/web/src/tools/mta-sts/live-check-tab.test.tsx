import { mtaStsCheckResultSchema, mtaStsOperations } from '@rfckit/standards';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { LiveCheckTab } from './live-check-tab.tsx';

const policy =
  'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: mx2.example.com\r\nmax_age: 604800\r\n';
const nameProblem = {
  severity: 'error' as const,
  code: 'MTASTS_MX_CERT_NAME',
  message:
    'The certificate of mx2.example.com is not valid for that name (it covers other.example.net). Mail to mx2.example.com would fail.',
  requirement: 'MUST' as const,
  rfc: 'RFC 8461 §4.2, RFC 6125',
  fix: 'Install on mx2.example.com a certificate whose subjectAltName holds mx2.example.com (or a wildcard covering it).',
};
const host = (name: string, preference: number, wouldFail: boolean) => ({
  host: name,
  preference,
  addresses: ['192.0.2.25'],
  cnameTarget: null,
  matchedPattern: name,
  starttls: true,
  tlsVersion: 'TLSv1.3',
  trusted: true,
  nameMatches: !wouldFail,
  expired: false,
  wouldFail,
  diagnostics: wouldFail ? [nameProblem] : [],
});

// the server's answer for an enforce-mode domain whose second MX host has a wrong-name certificate,
// checked against the result schema the page itself checks answers with
const enforceFailing = mtaStsCheckResultSchema.parse({
  domain: 'example.com',
  verdict: 'fail',
  summary: 'Enforce mode: mail to mx2.example.com would fail (1 MX host of 2).',
  record: {
    name: '_mta-sts.example.com',
    found: true,
    raw: 'v=STSv1; id=20260101;',
    id: '20260101',
    diagnostics: [],
  },
  policy: {
    url: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
    fetched: true,
    status: 200,
    contentType: 'text/plain',
    bytes: policy.length,
    raw: policy,
    mode: 'enforce',
    maxAge: 604800,
    mx: ['mx1.example.com', 'mx2.example.com'],
    diagnostics: [],
  },
  mx: {
    nullMx: false,
    dnsError: null,
    hosts: [host('mx1.example.com', 10, false), host('mx2.example.com', 20, true)],
  },
  failingHosts: ['mx2.example.com'],
  diagnostics: [],
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MTA-STS live check', () => {
  it('sends the domain and shows the verdict, the policy, the MX hosts with the one mail would fail to, and the links', async () => {
    const fetchMock = succeedWith(enforceFailing);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<LiveCheckTab />);
    fireEvent.change(screen.getByLabelText(/^Mail domain/), { target: { value: 'example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));

    expect(await screen.findByRole('heading', { name: 'MTA-STS fails for example.com' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${mtaStsOperations.check.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'example.com' });
    expect(screen.getByLabelText('Verdict: fail')).toBeInTheDocument();
    expect(
      screen.getByText('Enforce mode: mail to mx2.example.com would fail (1 MX host of 2).'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Policy as fetched')).toHaveTextContent('mode: enforce');
    expect(screen.getByLabelText('mx2.example.com result: mail would fail')).toBeInTheDocument();
    expect(screen.getByLabelText('mx1.example.com result: delivers')).toBeInTheDocument();
    const mx2 = screen.getByTestId('mx-mx2.example.com');
    expect(within(mx2).getByText('wrong name')).toBeInTheDocument();
    expect(within(mx2).getByRole('link', { name: 'Inspect the SMTP session' })).toHaveAttribute(
      'href',
      '/tools/smtp-session-inspector?tab=inspector&domain=example.com&host=mx2.example.com',
    );
    const why = screen.getByRole('list', { name: 'Why, for mx2.example.com' });
    expect(within(why).getByText(/RFC 8461 §4\.2/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'set up or read TLS-RPT reports' })).toHaveAttribute(
      'href',
      '/tools/tls-rpt',
    );
  });

  it('runs at once for a domain given in the address', async () => {
    const fetchMock = succeedWith(enforceFailing);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<LiveCheckTab />, { route: '/tools/mta-sts?tab=check&domain=example.com' });
    expect(await screen.findByRole('heading', { name: 'MTA-STS fails for example.com' })).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ domain: 'example.com' });
  });

  it('shows a refused target in the server’s words', async () => {
    vi.stubGlobal(
      'fetch',
      failWith('intranet.example.com resolves to 10.0.0.1, a private address', 'OUTBOUND_BLOCKED', 422),
    );
    renderWithProviders(<LiveCheckTab />);
    fireEvent.change(screen.getByLabelText(/^Mail domain/), { target: { value: 'intranet.example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(/a private address/)).toBeInTheDocument();
  });
});
