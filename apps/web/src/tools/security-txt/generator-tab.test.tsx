import { securityTxtOperations } from '@rfckit/standards';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

const file = [
  '# security.txt for example.com: serve it at https://example.com/.well-known/security.txt',
  'Contact: mailto:security@example.com',
  'Contact: tel:+1-201-555-0123',
  'Expires: 2027-03-09T08:09:10Z',
  '',
].join('\n');

describe('security.txt generator', () => {
  let fetchMock: ReturnType<typeof respondWith>;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-10T08:09:10.123Z'));
    fetchMock = respondWith({
      success: true,
      data: { file, warnings: ['Canonical points to www.example.com, not to example.com'] },
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function setup() {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<GeneratorTab />);
    return user;
  }

  it('starts with Expires less than a year ahead (RFC 9116 §2.5.5), and +1 Year sets now plus a year without fractions', async () => {
    const user = setup();
    // 2026-03-10T08:09:10.123Z plus a year less a day
    expect(screen.getByTestId('security-txt-expires')).toHaveTextContent('2027-03-09T08:09:10Z');
    expect(screen.getByLabelText(/Expires \(UTC\)/)).toHaveValue('2027-03-09T08:09');
    expect(screen.getByText(/RFC 9116 recommends less than a year/)).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText(/Expires \(UTC\)/), { target: { value: '2026-12-01T17:30' } });
    expect(screen.getByTestId('security-txt-expires')).toHaveTextContent('2026-12-01T17:30:00Z');

    vi.setSystemTime(new Date('2026-04-01T00:00:00.999Z'));
    await user.click(screen.getByRole('button', { name: '+1 Year' }));
    expect(screen.getByTestId('security-txt-expires')).toHaveTextContent('2027-04-01T00:00:00Z');
  });

  it('shows the required-field messages next to the fields without calling the API', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('Domain is required')).toBeInTheDocument();
    expect(screen.getByText('At least one contact is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Domain/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText(/^Contact 1/), 'security@example.com');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(
      await screen.findByText(
        'Contact must start with mailto:, https: or tel: (write mailto:security@example.com)',
      ),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('adds and removes contacts; the last one cannot be removed', async () => {
    const user = setup();
    expect(screen.getByRole('button', { name: 'Remove contact 1' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Add contact' }));
    await user.type(screen.getByLabelText(/^Contact 2/), 'tel:+1-201-555-0123');
    await user.click(screen.getByRole('button', { name: 'Remove contact 1' }));
    expect(screen.queryByLabelText(/^Contact 2/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Contact 1/)).toHaveValue('tel:+1-201-555-0123');
  });

  it('posts the form, shows the file with copy and download, and the advice', async () => {
    const user = setup();
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.type(screen.getByLabelText(/^Contact 1/), 'mailto:security@example.com');
    await user.click(screen.getByRole('button', { name: 'Add contact' }));
    await user.type(screen.getByLabelText(/^Contact 2/), 'tel:+1-201-555-0123');
    await user.type(screen.getByRole('combobox', { name: /^Preferred languages/ }), 'en,nl,');
    await user.type(screen.getByLabelText(/^Policy/), 'https://example.com/policy');
    await user.click(screen.getByRole('button', { name: 'Generate' }));

    const output = await screen.findByTestId('security-txt-output');
    expect(output.textContent).toBe(file);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${securityTxtOperations.generate.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({
      domain: 'example.com',
      contacts: ['mailto:security@example.com', 'tel:+1-201-555-0123'],
      expires: '2027-03-09T08:09:10Z',
      preferredLanguages: ['en', 'nl'],
      acknowledgments: '',
      canonical: '',
      policy: 'https://example.com/policy',
      hiring: '',
      encryption: '',
      csaf: '',
    });
    const panel = screen.getByRole('region', { name: 'Generated file' });
    expect(
      within(panel).getByText('Canonical points to www.example.com, not to example.com'),
    ).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Download security.txt' })).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Copy security.txt' }));
    expect(await navigator.clipboard.readText()).toBe(file);
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1400);
    });
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(within(panel).getByRole('button', { name: 'Copy security.txt' })).toBeInTheDocument();
  });

  async function generateWith(response: ReturnType<typeof respondWith>) {
    vi.stubGlobal('fetch', response);
    const user = setup();
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.type(screen.getByLabelText(/^Contact 1/), 'https://example.com/c');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    return screen.findByRole('alert');
  }

  it("shows the server's error and no file", async () => {
    const alert = await generateWith(
      respondWith({ success: false, error: 'Expires must be in the future', code: 'VALIDATION_ERROR' }, 400),
    );
    expect(alert).toHaveTextContent('Expires must be in the future');
    expect(screen.queryByTestId('security-txt-output')).not.toBeInTheDocument();
  });

  it("says 'Error: ' and the message when the server cannot be reached", async () => {
    const alert = await generateWith(
      vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')),
    );
    expect(alert).toHaveTextContent('Error: Network error. Please try again.');
  });

  it("falls back to 'Failed to generate security.txt file' for an answer that is not the API's", async () => {
    const alert = await generateWith(
      vi.fn<typeof fetch>().mockResolvedValue(new Response('<html>', { status: 502 })),
    );
    expect(alert).toHaveTextContent('Failed to generate security.txt file');
  });
});
