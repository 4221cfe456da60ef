import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

describe('MTA-STS generator', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date('2026-02-03T04:05:06Z') });
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

  async function fill(user: ReturnType<typeof setup>, field: HTMLElement, text: string) {
    await user.click(field);
    await user.paste(text);
  }

  it("starts from the spec's defaults and asks for the domain", () => {
    setup();
    expect(screen.getByLabelText(/^Mode/)).toHaveValue('enforce');
    expect(screen.getByLabelText(/^max_age/)).toHaveValue('604800');
    expect(screen.getByLabelText('From the date and time, UTC (20260203040506)')).toBeChecked();
    const panel = screen.getByRole('region', { name: 'Generated MTA-STS record and policy' });
    expect(panel).toHaveTextContent('Domain is required');
  });

  it('writes the record, the CRLF policy and the hosting steps live, in the browser', async () => {
    const user = setup();
    await fill(user, screen.getByLabelText(/^Domain/), 'Example.com');
    await fill(user, screen.getByLabelText('MX host pattern 1'), 'mx1.example.com');
    await user.click(screen.getByRole('button', { name: 'Add MX host' }));
    await fill(user, screen.getByLabelText('MX host pattern 2'), '*.backup.example.net');
    await user.selectOptions(screen.getByLabelText(/^Mode/), 'testing');
    expect(screen.getByTestId('mta-sts-record-name')).toHaveTextContent('_mta-sts.example.com');
    expect(screen.getByTestId('mta-sts-record')).toHaveTextContent('v=STSv1; id=20260203040506');
    expect(screen.getByTestId('mta-sts-policy').textContent).toBe(
      'version: STSv1\r\nmode: testing\r\nmx: mx1.example.com\r\nmx: *.backup.example.net\r\nmax_age: 604800\r\n',
    );
    const steps = screen.getByRole('list', { name: 'Hosting steps' });
    expect(steps).toHaveTextContent('https://mta-sts.example.com/.well-known/mta-sts.txt');
    expect(steps).toHaveTextContent('certificate');
    expect(screen.getByRole('region', { name: 'Notes on this policy' })).toHaveTextContent('Testing mode');
    // removing a row takes its pattern out
    await user.click(screen.getByRole('button', { name: 'Remove MX host pattern 1' }));
    expect(screen.getByTestId('mta-sts-policy').textContent).not.toContain('mx1.example.com');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes a counter as the id and refuses one with other characters', async () => {
    const user = setup();
    await fill(user, screen.getByLabelText(/^Domain/), 'example.com');
    await fill(user, screen.getByLabelText('MX host pattern 1'), 'mx.example.com');
    await user.click(screen.getByLabelText('A counter you keep'));
    const counter = screen.getByLabelText(/^Counter/);
    await user.clear(counter);
    await fill(user, counter, '7');
    expect(screen.getByTestId('mta-sts-record')).toHaveTextContent('v=STSv1; id=7');
    await fill(user, counter, '-b');
    expect(counter).toHaveAccessibleDescription(
      expect.stringContaining('The id may only contain letters and digits'),
    );
  });

  it('says why there is no policy: a bad pattern, or enforce without any mx', async () => {
    const user = setup();
    await fill(user, screen.getByLabelText(/^Domain/), 'example.com');
    const panel = screen.getByRole('region', { name: 'Generated MTA-STS record and policy' });
    expect(within(panel).getByText('At least one mx field is required')).toBeInTheDocument();
    await fill(user, screen.getByLabelText('MX host pattern 1'), 'mail*.example.com');
    expect(panel).toHaveTextContent("'*' may only stand as the whole left-most label");
  });
});
