import { checkDmarc, createFixtureResolver, dmarcOperations } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// The API's answers are what the server computes: checkDmarc from @rfckit/standards, over zone data.
const zones = createFixtureResolver({
  '_dmarc.example.com': {
    TXT: 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:agg@example.com,mailto:x@vendor.example',
  },
  'www.example.com': { A: '192.0.2.1' },
});

describe('DMARC validator', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function setup(fetchMock: ReturnType<typeof succeedWith>) {
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<ValidatorTab />);
    return user;
  }

  it('asks for a record or a domain on submit without a request, and checks a domain on blur', async () => {
    const fetchMock = succeedWith(await checkDmarc({ record: 'v=DMARC1; p=none' }));
    const user = setup(fetchMock);
    const button = screen.getByRole('button', { name: 'Validate' });
    expect(button).toBeEnabled();
    await user.click(button);
    expect(screen.getByLabelText(/^DMARC record/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a DMARC record or a domain'),
    );
    await user.type(screen.getByLabelText(/^Domain/), 'user@example.com');
    await user.tab();
    expect(screen.getByLabelText(/^Domain/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a domain such as example.com, not an email address'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers the record with the missing p= added, to copy', async () => {
    const record = 'v=DMARC1; rua=mailto:agg@example.com';
    const fetchMock = succeedWith(await checkDmarc({ record }));
    const user = setup(fetchMock);
    await user.click(screen.getByLabelText(/^DMARC record/));
    await user.paste(record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const corrected = await screen.findByRole('region', { name: 'Corrected record' });
    expect(within(corrected).getByTestId('corrected-record')).toHaveTextContent(
      'v=DMARC1; p=none; rua=mailto:agg@example.com',
    );
    expect(within(corrected).getByRole('list', { name: 'What changed' })).toHaveTextContent('Added p=none');
  });

  it('validates a pasted record and shows each finding with its badges, and the tags', async () => {
    const record = 'v=DMARC1; p=reject; pct=50; rua=dmarc@example.com; xyz=1';
    const fetchMock = succeedWith(await checkDmarc({ record }));
    const user = setup(fetchMock);
    await user.click(screen.getByLabelText(/^DMARC record/));
    await user.paste(record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid DMARC record' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${dmarcOperations.validate.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ record });

    const errors = screen.getByRole('region', { name: 'Errors' });
    const error = within(errors).getByRole('listitem');
    expect(error).toHaveTextContent("'dmarc@example.com' is an email address, not a URI");
    expect(error).toHaveTextContent('MUST');
    expect(error).toHaveTextContent('Fix: Write rua=mailto:dmarc@example.com.');
    const warnings = screen.getByRole('region', { name: 'Warnings' });
    expect(within(warnings).getByText(/^pct=50: RFC 9989 removed pct/)).toBeInTheDocument();
    expect(within(warnings).getByText(/xyz is not a DMARC tag/)).toBeInTheDocument();

    const tags = screen.getByRole('table', { name: 'Record tags' });
    const pct = within(tags)
      .getAllByRole('row')
      .find((row) => row.getAttribute('data-tag') === 'pct')!;
    expect(within(pct).getByText('Removed in RFC 9989')).toBeInTheDocument();
    expect(screen.getByTestId('dmarc-verdicts')).toHaveTextContent(
      'RFC 9989 receivers: invalid report address. RFC 7489 receivers: invalid report address.',
    );
  });

  it('looks up a domain and shows the tree walk, the RFC 7489 reading and the report destinations', async () => {
    const fetchMock = succeedWith(await checkDmarc({ domain: 'www.example.com' }, zones));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'www.example.com');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { name: 'Valid DMARC record' })).toBeInTheDocument();
    expect(screen.getByTestId('dmarc-applied-policy')).toHaveTextContent(
      'Mail from www.example.com gets its Organizational Domain’s record at _dmarc.example.com: sp = quarantine',
    );
    const walk = screen.getByRole('list', { name: 'RFC 9989 tree walk lookups' });
    expect(
      within(walk)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-outcome')),
    ).toEqual(['none', 'record', 'none']);
    expect(within(walk).getByText('_dmarc.www.example.com')).toBeInTheDocument();
    expect(screen.getByTestId('dmarc-rfc7489-policy')).toHaveTextContent('_dmarc.example.com: sp=quarantine');
    const destinations = screen.getByRole('table', { name: 'Report destinations' });
    expect(within(destinations).getByText('Not authorised: no reports')).toBeInTheDocument();
    expect(within(destinations).getByText('Same organisation: no check needed')).toBeInTheDocument();

    // the tags table agrees: rua names a destination that gets no reports, so it is not OK
    const rua = within(screen.getByRole('table', { name: 'Record tags' })).getByRole('row', { name: /^rua/ });
    expect(within(rua).getByText('Not authorised: no reports')).toBeInTheDocument();
    expect(within(rua).queryByText('OK')).not.toBeInTheDocument();
  });

  it("shows the server's error", async () => {
    const user = setup(failWith('Enter a domain such as example.com, not a URL', 'VALIDATION_ERROR', 400));
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Enter a domain such as example.com, not a URL')).toBeInTheDocument();
  });

  it('checks the domain in the browser first, with the message the server would give', async () => {
    const fetchMock = succeedWith(await checkDmarc({ record: 'v=DMARC1; p=none' }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'dmarc@example.com');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText('Enter a domain such as example.com, not an email address'),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
