import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gradeHeaderBlock, httpHeadersOperations } from '@rfckit/standards';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { AnalyserTab } from './analyser-tab.tsx';
import { scoreBand } from '../../components/score-band.ts';
import { ValidatorTab } from './validator-tab.tsx';

// real grader output for a weak site: CSP −25, HSTS max-age 300 −10, XCTO −5, XFO −20 → 40, D+
const weak = gradeHeaderBlock(
  'HTTP/2 200\ncontent-type: text/html\nstrict-transport-security: max-age=300\nreferrer-policy: no-referrer',
);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('score colour bands (spec part 2 §9)', () => {
  it.each([
    [135, 'good'],
    [80, 'good'],
    [79, 'fair'],
    [60, 'fair'],
    [59, 'poor'],
    [0, 'poor'],
  ])('%i is %s', (score, word) => {
    expect(scoreBand(score).word).toBe(word);
  });
});

describe('HTTP headers Analyser', () => {
  it('refuses a blank URL without calling the API', async () => {
    const fetchMock = respondWith({});
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<AnalyserTab />);
    await user.click(screen.getByRole('button', { name: 'Analyze Headers' }));
    expect(await screen.findByText('URL is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the busy label, then the score, grade, tests and recommendations', async () => {
    let release: (response: Response) => void = () => {};
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockImplementation(() => new Promise<Response>((resolve) => (release = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<AnalyserTab />);
    await user.type(screen.getByLabelText('URL'), 'https://example.com');
    await user.click(screen.getByRole('button', { name: 'Analyze Headers' }));
    expect(await screen.findByRole('button', { name: 'Analyzing Headers...' })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${httpHeadersOperations.analyze.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ url: 'https://example.com' });

    release(new Response(JSON.stringify({ success: true, data: weak }), { status: 200 }));
    expect(await screen.findByRole('heading', { name: 'Grade D+' })).toBeInTheDocument();
    const score = screen.getByTestId('headers-score');
    expect(score).toHaveTextContent('40');
    expect(score).toHaveAttribute('data-band', 'poor');
    expect(score).toHaveAccessibleName('Score 40 out of 100, poor');

    const hsts = screen.getByRole('row', { name: /Strict Transport Security/ });
    expect(hsts).toHaveTextContent('Fail');
    expect(hsts).toHaveTextContent('−10');
    expect(hsts).toHaveTextContent(
      'Strict-Transport-Security header set to less than six months (15768000).',
    );
    expect(screen.getByRole('row', { name: /^Redirection/ })).toHaveTextContent('Not evaluated');

    const recommendations = screen.getByRole('region', { name: 'Recommendations' });
    const first = within(recommendations).getAllByRole('listitem')[0]!;
    expect(first).toHaveAttribute('data-severity', 'HIGH');
    expect(
      within(recommendations).getAllByRole('button', { name: /Copy the .* example/ }).length,
    ).toBeGreaterThan(0);
    expect(screen.getByRole('table', { name: 'Response headers' })).toHaveTextContent('max-age=300');
  });

  it("shows the server's error text", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith(
        { success: false, error: 'The address 10.0.0.1 is private.', code: 'OUTBOUND_REFUSED' },
        422,
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<AnalyserTab />);
    await user.type(screen.getByLabelText('URL'), 'http://10.0.0.1/');
    await user.click(screen.getByRole('button', { name: 'Analyze Headers' }));
    expect(await screen.findByText('The address 10.0.0.1 is private.')).toBeInTheDocument();
  });

  it('says the analysis failed when the call itself fails', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    const user = userEvent.setup();
    renderWithProviders(<AnalyserTab />);
    await user.type(screen.getByLabelText('URL'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Analyze Headers' }));
    expect(
      await screen.findByText('Failed to analyse headers. Please check the URL and try again.'),
    ).toBeInTheDocument();
  });
});

describe('HTTP headers Validator', () => {
  it('posts the pasted headers and grades them without a fetch of the site', async () => {
    const fetchMock = respondWith({ success: true, data: weak });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Response headers are required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Response headers'), 'X-Frame-Options: DENY');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'Grade D+' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${httpHeadersOperations.validate.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ headers: 'X-Frame-Options: DENY' });
    expect(screen.getByRole('list', { name: 'What the grade rests on' })).toHaveTextContent(
      /Scored from 10 of 12 tests/,
    );
  });
});
