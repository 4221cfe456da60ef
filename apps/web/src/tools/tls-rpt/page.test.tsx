import {
  buildTlsRptSampleReport,
  checkTlsRpt,
  generateTlsRptRecord,
  readTlsRptReport,
  tlsRptSamplePolicyMessages,
  type TlsRptGenerateBody,
} from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { json } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import TlsRptPage from './page.tsx';

const report = {
  'organization-name': 'Company-X',
  'date-range': { 'start-datetime': '2016-04-01T00:00:00Z', 'end-datetime': '2016-04-01T23:59:59Z' },
  'contact-info': 'sts-reporting@company-x.example',
  'report-id': '5065427c',
  policies: [
    {
      policy: {
        'policy-type': 'sts',
        'policy-domain': 'company-y.example',
        'mx-host': ['*.mail.company-y.example'],
      },
      summary: { 'total-successful-session-count': 5326, 'total-failure-session-count': 303 },
      'failure-details': [
        {
          'result-type': 'starttls-not-supported',
          'sending-mta-ip': '2001:db8:abcd:0013::1',
          'receiving-mx-hostname': 'mx2.mail.company-y.example',
          'receiving-ip': '203.0.113.56',
          'failed-session-count': 200,
        },
        {
          'result-type': 'certificate-expired',
          'sending-mta-ip': '2001:db8:abcd:0012::1',
          'receiving-mx-hostname': 'mx1.mail.company-y.example',
          'failed-session-count': 103,
        },
      ],
    },
  ],
};

/** Answers each operation with what the server computes from the same standards code. */
function server() {
  return vi.fn<typeof fetch>().mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    if (url.endsWith('/tls-rpt/generate')) {
      const outcome = generateTlsRptRecord(body as TlsRptGenerateBody & { reportingUris: string[] });
      return outcome.ok
        ? json({ success: true, data: outcome.result })
        : json({ success: false, error: outcome.error, code: 'VALIDATION_ERROR' }, 400);
    }
    if (url.endsWith('/tls-rpt/validate'))
      return json({ success: true, data: await checkTlsRpt({ record: String(body.record) }) });
    if (url.endsWith('/tls-rpt/report'))
      return json({ success: true, data: readTlsRptReport(String(body.report)) });
    if (url.endsWith('/tls-rpt/sample')) {
      const policy = { type: 'no-policy-found' as const, strings: [], mxHosts: ['mx.example.com'] };
      const sample = buildTlsRptSampleReport({
        domain: String(body.domain),
        policy,
        now: new Date('2026-03-02T10:00:00Z'),
      });
      return json({
        success: true,
        data: {
          report: JSON.stringify(sample, null, 2),
          policy: { ...policy, source: 'none-found', note: 'No MTA-STS policy.' },
        },
      });
    }
    throw new Error(`unexpected call to ${url}`);
  });
}

const sent = (fetchMock: ReturnType<typeof server>, index = 0) =>
  JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body)) as Record<string, unknown>;

describe('TLS-RPT page', () => {
  let fetchMock: ReturnType<typeof server>;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock = server();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function setup() {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<TlsRptPage />);
    return user;
  }

  it('is one page with the spec sections, without tabs', () => {
    setup();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'TLS-RPT sections',
      'Record generator',
      'Record validator',
      'Sample report',
      'Report viewer',
      'About TLS-RPT',
    ]);
    expect(screen.getByRole('table', { name: /Result types/ })).toBeInTheDocument();
  });

  it('generator: asks for the domain, removes a row only when there are two, sends the spec body', async () => {
    const user = setup();
    const form = screen.getByRole('form', { name: 'TLS-RPT record generator' });
    await user.click(within(form).getByRole('button', { name: 'Generate record' }));
    expect(within(form).getByLabelText(/^Domain/)).toHaveAccessibleDescription(
      expect.stringContaining('Domain is required'),
    );
    expect(fetchMock).not.toHaveBeenCalled();

    expect(within(form).queryByRole('button', { name: /Remove reporting uri/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add reporting URI' }));
    await user.click(within(form).getByRole('button', { name: 'Remove reporting uri 2' }));
    expect(within(form).queryByRole('button', { name: /Remove reporting uri/ })).not.toBeInTheDocument();

    await user.type(within(form).getByLabelText(/^Domain/), 'example.com');
    await user.type(within(form).getByLabelText('Reporting URI 1'), 'mailto:tlsrpt@example.com');
    await user.click(within(form).getByRole('button', { name: 'Generate record' }));
    expect(await screen.findByTestId('tlsrpt-record')).toHaveTextContent(
      'v=TLSRPTv1; rua=mailto:tlsrpt@example.com',
    );
    // the disabled submit button dropped focus: it goes to the answer, not to the page body
    const answer = within(screen.getByRole('region', { name: 'Generated record' })).getByRole('heading', {
      level: 3,
    });
    expect(answer).toHaveFocus();
    expect(sent(fetchMock)).toEqual({
      domain: 'example.com',
      reportingUris: ['mailto:tlsrpt@example.com'],
      version: 'TLSRPTv1',
    });
  });

  it('generator: shows the server refusal of a URI without a scheme', async () => {
    const user = setup();
    const form = screen.getByRole('form', { name: 'TLS-RPT record generator' });
    await user.type(within(form).getByLabelText(/^Domain/), 'example.com');
    await user.type(within(form).getByLabelText('Reporting URI 1'), 'tlsrpt@example.com');
    await user.click(within(form).getByRole('button', { name: 'Generate record' }));
    const result = screen.getByRole('region', { name: 'Generated record' });
    expect(
      await within(result).findByText(/has no scheme: write it as mailto:tlsrpt@example.com/),
    ).toBeInTheDocument();
  });

  it('validator: says the spec text for a blank record and sends the record trimmed', async () => {
    const user = setup();
    const form = screen.getByRole('form', { name: 'TLS-RPT record validator' });
    await user.click(within(form).getByRole('button', { name: 'Validate' }));
    expect(within(form).getByLabelText(/^TLS-RPT record/)).toHaveAccessibleDescription(
      expect.stringContaining('TLS-RPT record is required'),
    );
    await user.click(within(form).getByLabelText(/^TLS-RPT record/));
    await user.paste('  v=TLSRPTv1; rua=http://r.example.com/  ');
    await user.click(within(form).getByRole('button', { name: 'Validate' }));
    const result = screen.getByRole('region', { name: 'Validation result' });
    expect(
      await within(result).findByRole('heading', { name: 'Invalid TLS-RPT record' }),
    ).toBeInTheDocument();
    expect(
      within(result).getByText(/reports are posted over https: only/, { selector: 'p' }),
    ).toBeInTheDocument();
    expect(sent(fetchMock)).toEqual({ record: 'v=TLSRPTv1; rua=http://r.example.com/' });
  });

  it('report viewer: unpacks an uploaded .json.gz in the browser and shows the counts by result type', async () => {
    const user = setup();
    const gzipped = await new Response(
      new Response(JSON.stringify(report)).body?.pipeThrough(new CompressionStream('gzip')),
    ).arrayBuffer();
    const file = new File([gzipped], 'company-x!company-y.example!1459468800!1459555199.json.gz', {
      type: 'application/gzip',
    });
    // Mantine's FileInput is a button that opens the hidden file input
    expect(screen.getByRole('button', { name: /^Report file/ })).toBeInTheDocument();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (input === null) throw new Error('no file input');
    await user.upload(input, file);
    const result = screen.getByRole('region', { name: 'Report summary' });
    expect(
      await within(result).findByRole('heading', { name: 'Valid report: 303 failed sessions' }),
    ).toBeInTheDocument();
    expect(sent(fetchMock).report).toBe(JSON.stringify(report));
    const byType = within(result).getByRole('table', { name: 'Failures by result type' });
    const rows = within(byType)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows[0]).toMatch(/^starttls-not-supported200/);
    expect(rows[1]).toMatch(/^certificate-expired103/);
    const details = within(result).getByRole('table', { name: 'Failure details' });
    expect(within(details).getByText('mx2.mail.company-y.example (203.0.113.56)')).toBeInTheDocument();
    expect(within(details).getByText('2001:db8:abcd:0013::1')).toBeInTheDocument();
  });

  it('sample report: looks up the live policy by default and offers the JSON to copy and download', async () => {
    const user = setup();
    const form = screen.getByRole('form', { name: 'Sample report builder' });
    await user.type(within(form).getByLabelText(/^Domain/), 'example.com');
    await user.click(within(form).getByRole('button', { name: 'Build sample report' }));
    const result = screen.getByRole('region', { name: 'Sample report' });
    expect(await within(result).findByTestId('tlsrpt-sample')).toHaveTextContent(
      '"policy-domain": "example.com"',
    );
    expect(within(result).getByRole('heading', { level: 3 })).toHaveFocus();
    expect(within(result).getByRole('button', { name: 'Copy the sample report' })).toBeInTheDocument();
    expect(within(result).getByRole('button', { name: 'Download .json' })).toBeInTheDocument();
    expect(sent(fetchMock)).toEqual({ domain: 'example.com' });
  });

  it('sample report: an entered policy needs its TLSA records and MX hosts, none is made up', async () => {
    const user = setup();
    const form = screen.getByRole('form', { name: 'Sample report builder' });
    await user.type(within(form).getByLabelText(/^Domain/), 'example.com');
    await user.click(within(form).getByRole('radio', { name: /Enter a policy/ }));
    await user.selectOptions(within(form).getByLabelText('Policy type'), 'tlsa');
    await user.click(within(form).getByRole('button', { name: 'Build sample report' }));
    expect(within(form).getByLabelText(/^Policy lines/)).toHaveAccessibleDescription(
      expect.stringContaining(tlsRptSamplePolicyMessages.tlsaRecords),
    );
    expect(within(form).getByLabelText(/^MX hosts/)).toHaveAccessibleDescription(
      expect.stringContaining(tlsRptSamplePolicyMessages.mxHosts),
    );
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(within(form).getByLabelText(/^MX hosts/), 'mx1.example.com');
    await user.type(within(form).getByLabelText(/^Policy lines/), `3 1 1 ${'ab'.repeat(32)}`);
    await user.click(within(form).getByRole('button', { name: 'Build sample report' }));
    await within(screen.getByRole('region', { name: 'Sample report' })).findByTestId('tlsrpt-sample');
    expect(sent(fetchMock)).toEqual({
      domain: 'example.com',
      policy: { type: 'tlsa', mxHosts: ['mx1.example.com'], strings: [`3 1 1 ${'ab'.repeat(32)}`] },
    });
  });
});
