import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

describe('DMARC generator', { timeout: SLOW_UI_MS }, () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock = vi.fn();
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

  const record = () => screen.getByTestId('dmarc-record').textContent;

  /** One input event per field rather than one per key: the whole form re-renders on each. */
  async function fill(user: ReturnType<typeof setup>, field: HTMLElement, text: string) {
    await user.click(field);
    await user.paste(text);
  }

  it("shows the spec's defaults as v=DMARC1; p=none, with the record name to come", () => {
    setup();
    expect(record()).toBe('v=DMARC1; p=none');
    expect(screen.getByTestId('dmarc-record-name')).toHaveTextContent('_dmarc.example.com');
    expect(screen.getByLabelText(/^Policy \(p\)/)).toHaveValue('none');
    expect(screen.getByLabelText(/^Percentage \(pct\)/)).toHaveValue('100%');
    expect(screen.getByLabelText(/^Report interval in seconds \(ri\)/)).toHaveValue('86400');
    expect(screen.getByLabelText('Report when all mechanisms fail (0)')).toBeChecked();
    const panel = screen.getByRole('region', { name: 'Generated record' });
    expect(within(panel).getByText(/Start with p=none for 3-6 months/)).toBeInTheDocument();
  });

  it('updates the preview live by the spec rules, with the removed tags badged', async () => {
    const user = setup();
    await fill(user, screen.getByLabelText(/^Domain/), 'Example.COM');
    await user.selectOptions(screen.getByLabelText(/^Policy \(p\)/), 'quarantine');
    await user.selectOptions(screen.getByLabelText(/^Subdomain policy \(sp\)/), 'reject');
    await user.selectOptions(screen.getByLabelText(/^Non-existent subdomain policy \(np\)/), 'reject');
    await user.selectOptions(screen.getByLabelText('DKIM alignment (adkim)'), 's');
    const pct = screen.getByLabelText(/^Percentage \(pct\)/);
    await user.clear(pct);
    await fill(user, pct, '25');
    await user.click(screen.getByLabelText(/^Test mode \(t=y\)/));
    await fill(user, screen.getByLabelText('Aggregate report address 1'), 'agg@example.com');
    await user.click(screen.getByRole('button', { name: 'Add aggregate address' }));
    await user.click(screen.getByRole('button', { name: 'Add aggregate address' }));
    await fill(user, screen.getByLabelText('Aggregate report address 3'), 'mailto:vendor@reports.example');
    await fill(user, screen.getByLabelText('Failure report address 1'), 'fail@example.com');
    await user.click(screen.getByLabelText('Report when any mechanism fails (1)'));
    await user.click(screen.getByLabelText('DKIM failures (d)'));

    expect(record()).toBe(
      'v=DMARC1; p=quarantine; sp=reject; np=reject; adkim=s; pct=25; t=y; rua=mailto:agg@example.com,mailto:vendor@reports.example; ruf=mailto:fail@example.com; fo=1:d',
    );
    expect(screen.getByTestId('dmarc-record-name')).toHaveTextContent('_dmarc.example.com');
    const panel = screen.getByRole('region', { name: 'Generated record' });
    const warnings = within(panel).getByRole('region', { name: 'Warnings' });
    expect(within(warnings).getByText(/^pct=25: RFC 9989 removed pct/)).toBeInTheDocument();
    expect(within(panel).getByText(/apply it to 25-50% of failing mail first/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  }, 20_000);

  it('badges the tags RFC 9989 added and removed, with the reason on focus', async () => {
    setup();
    const form = screen.getByRole('form', { name: 'DMARC generator' });
    expect(within(form).getAllByText('Removed in RFC 9989')).toHaveLength(3);
    expect(within(form).getAllByText('RFC 9989')).toHaveLength(3);
    const removed = within(form)
      .getAllByText('Removed in RFC 9989')[0]!
      .closest<HTMLElement>('[data-spec-badge]')!;
    await act(async () => removed.focus());
    expect(removed).toHaveFocus();
    expect(removed).toHaveAccessibleDescription(/removed pct: operational experience/);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/removed pct: operational experience/);
  });

  it('removes a blank or unwanted address row, and Reset goes back to the defaults', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Add failure address' }));
    await fill(user, screen.getByLabelText('Failure report address 2'), 'f@example.com');
    expect(record()).toBe('v=DMARC1; p=none; ruf=mailto:f@example.com');
    await user.click(screen.getByRole('button', { name: 'Remove failure report address 2' }));
    expect(record()).toBe('v=DMARC1; p=none');
    await user.selectOptions(screen.getByLabelText(/^Policy \(p\)/), 'reject');
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(record()).toBe('v=DMARC1; p=none');
  });

  it("shows the spec's error when the form cannot give a record, and the reason at the field", async () => {
    const user = setup();
    await user.clear(screen.getByLabelText(/^Percentage \(pct\)/));
    const panel = screen.getByRole('region', { name: 'Generated record' });
    expect(within(panel).getByText('Failed to generate DMARC record. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('The percentage is from 0 to 100')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Percentage \(pct\)/), '100');
    expect(record()).toBe('v=DMARC1; p=none');
  });

  it('copies the record and says Copied! for 2 seconds', async () => {
    const user = setup();
    await user.selectOptions(screen.getByLabelText(/^Policy \(p\)/), 'reject');
    const panel = screen.getByRole('region', { name: 'Generated record' });
    await user.click(within(panel).getByRole('button', { name: 'Copy DMARC record' }));
    expect(await navigator.clipboard.readText()).toBe('v=DMARC1; p=reject');
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1900);
    });
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(within(panel).getByRole('button', { name: 'Copy DMARC record' })).toBeInTheDocument();
  });
});
