import { generateSmtpTls, smtpTlsGenerateBody, validateSmtpTlsIdentity } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import SmtpTlsPage from './page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// The API's answers are what the server computes: the same @rfckit/standards functions.
afterEach(() => {
  vi.unstubAllGlobals();
});

async function fillSettings(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Server hostname/), 'mail.example.com');
  await user.type(screen.getByLabelText(/Email domain/), 'example.com');
}

describe('SMTP TLS validator', () => {
  it('sends the certificate names and shows the status, the four flags and the findings', async () => {
    const answer = validateSmtpTlsIdentity({
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'smtp',
      includeSRV: false,
      presented: { dnsIds: [], srvIds: [], commonName: 'mail.example.com' },
      source: 'certificateInfo',
    });
    const fetchMock = succeedWith(answer);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await fillSettings(user);
    await user.type(screen.getByLabelText('Common name (CN)'), 'mail.example.com');
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Passed with Warnings' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/smtp-tls/validate');
    expect(JSON.parse(String(init?.body))).toEqual({
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'smtp',
      port: 587,
      includeSRV: false,
      certificateInfo: { dnsIds: [], srvIds: [], commonName: 'mail.example.com' },
    });
    const summary = screen.getByRole('region', { name: 'Validation summary' });
    expect(within(summary).getByLabelText('dnsIdCompliant: No')).toBeInTheDocument();
    expect(within(summary).getByLabelText('rfc7817Compliant: Yes')).toBeInTheDocument();
    // without SRV discovery no SRV-ID is looked for: the flag is true but says so, not "Yes"
    expect(within(summary).getByLabelText('srvIdCompliant: Not used')).toBeInTheDocument();
    expect(within(summary).getByLabelText('cnIdCompliant: Yes')).toBeInTheDocument();
    const warnings = screen.getByRole('region', { name: 'Warnings' });
    expect(warnings).toHaveTextContent('RFC 7817 §3, RFC 6125 §6.4.4');
    expect(warnings).toHaveTextContent('Reissue the certificate with the DNS-ID');
  });

  it('needs serverHostname and emailDomain (spec part 2 §5) and sends nothing without them', async () => {
    const fetchMock = succeedWith({});
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Server hostname is required')).toBeInTheDocument();
    expect(screen.getByText('Email domain is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a live source and says a failure with the spec’s words', async () => {
    const refusal = 'Refusing to connect to mail.example.com (10.0.0.1): a private address';
    const fetchMock = failWith(refusal, 'OUTBOUND_BLOCKED', 422);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await fillSettings(user);
    await user.click(screen.getByRole('radio', { name: 'Fetch live' }));
    // one port for the connection: the service's, editable
    expect(screen.getAllByRole('textbox', { name: /port/i })).toHaveLength(1);
    await user.clear(screen.getByLabelText(/^Port/));
    await user.type(screen.getByLabelText(/^Port/), '2587');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText(`Failed to validate TLS compliance: ${refusal}`)).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({ port: 2587, live: {} });
  });

  it('points at the host and port when nothing accepts the connection, not at our side', async () => {
    vi.stubGlobal(
      'fetch',
      failWith('Nothing answered on port 993 at mail.example.com', 'CONNECT_FAILED', 422),
    );
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await fillSettings(user);
    await user.click(screen.getByRole('radio', { name: 'Fetch live' }));
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText(/Nothing accepted the connection: check the host and port/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/says nothing about your configuration/)).not.toBeInTheDocument();
  });
});

describe('SMTP TLS generator', () => {
  it('shows the names, the OpenSSL configuration and the SRV record', async () => {
    const answer = generateSmtpTls(
      smtpTlsGenerateBody.parse({
        serverHostname: 'mail.example.com',
        emailDomain: 'example.com',
        serviceType: 'imaps',
      }),
    );
    vi.stubGlobal('fetch', succeedWith(answer));
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillSettings(user);
    await user.selectOptions(screen.getByLabelText('Service type'), 'imaps');
    expect(screen.getByLabelText(/^Port/)).toHaveValue('993');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(
      await screen.findByText(/the certificate needs mail\.example\.com, _imaps\.example\.com/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/_imaps\._tcp\.example\.com\. 3600 IN SRV 0 1 993 mail\.example\.com\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the OpenSSL configuration' })).toBeInTheDocument();
  });

  it('says a failure with the spec’s words', async () => {
    vi.stubGlobal('fetch', failWith('Too many requests', 'RATE_LIMITED', 429));
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillSettings(user);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText(/^Failed to generate TLS policy: /)).toBeInTheDocument();
  });
});

describe('SMTP TLS Backend Info', () => {
  const info = {
    checks: [{ name: 'DNS-ID', rfc: 'RFC 7817 §3', description: 'dNSName against the server hostname' }],
    services: [
      {
        serviceType: 'imaps',
        label: 'IMAP over implicit TLS',
        port: 993,
        tls: 'implicit',
        srvService: '_imaps._tcp',
      },
    ],
    limits: [{ name: 'Pasted PEM', value: '64 KiB' }],
  };

  it('loads each time the tab opens', async () => {
    const fetchMock = succeedWith(info);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<SmtpTlsPage />, { route: '/tools/smtp-tls' });
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('tab', { name: 'Backend Info' }));
    expect(await screen.findByRole('row', { name: /Pasted PEM/ })).toHaveTextContent('64 KiB');
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(/^\/v1\/smtp-tls\/info\??$/);
    await user.click(screen.getByRole('tab', { name: 'Information' }));
    await user.click(screen.getByRole('tab', { name: 'Backend Info' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('shows a failure in red text', async () => {
    vi.stubGlobal('fetch', failWith('Too many requests', 'RATE_LIMITED', 429));
    const user = userEvent.setup();
    renderWithProviders(<SmtpTlsPage />, { route: '/tools/smtp-tls' });
    await user.click(screen.getByRole('tab', { name: 'Backend Info' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests');
  });
});
