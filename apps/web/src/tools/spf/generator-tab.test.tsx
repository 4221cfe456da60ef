import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

describe('SPF generator', { timeout: SLOW_UI_MS }, () => {
  afterEach(() => vi.unstubAllGlobals());

  function setup() {
    // the generator works in the browser: any request is a failure of this test
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    return { user, fetchMock };
  }

  const record = () => screen.getByTestId('spf-record');

  it('builds the record live from presets, own servers and the all qualifier, and copies it', async () => {
    const { user, fetchMock } = setup();
    expect(record()).toHaveTextContent(/^v=spf1 ~all$/);

    await user.click(screen.getByRole('checkbox', { name: /^Google Workspace/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Microsoft 365/ }));
    expect(record()).toHaveTextContent(
      /^v=spf1 include:_spf.google.com include:spf.protection.outlook.com ~all$/,
    );
    expect(screen.getByTestId('lookup-budget')).toHaveTextContent(
      'DNS lookups in this record: 2 of 10, within the limit',
    );

    await user.click(screen.getByRole('button', { name: 'Add mechanism' }));
    await user.type(screen.getByLabelText('Value 1'), '192.0.2.0/24');
    await user.click(screen.getByRole('checkbox', { name: /^mx: this domain/ }));
    await user.click(screen.getByRole('radio', { name: /^-all/ }));
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    const expected =
      'v=spf1 ip4:192.0.2.0/24 mx include:_spf.google.com include:spf.protection.outlook.com -all';
    expect(record()).toHaveTextContent(new RegExp(`^${expected.replaceAll('.', '\\.')}$`));
    expect(screen.getByTestId('spf-zone-line')).toHaveTextContent(`example.com. 3600 IN TXT "${expected}"`);
    expect(screen.getByTestId('lookup-budget')).toHaveTextContent('3 of 10');

    const panel = screen.getByRole('region', { name: 'Generated record' });
    await user.click(within(panel).getByRole('button', { name: 'Copy SPF record' }));
    expect(await within(panel).findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(expected);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('warns about +all, and explains an entry that is not an address with its position', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: /^\+all/ }));
    const warnings = screen.getByRole('region', { name: 'Warnings' });
    expect(within(warnings).getByRole('listitem')).toHaveAttribute('data-code', 'SPF_ALL_PASS');

    await user.click(screen.getByRole('button', { name: 'Add mechanism' }));
    await user.type(screen.getByLabelText('Value 1'), '192.0.2.300');
    expect(record()).toHaveTextContent(/^v=spf1 ip4:192\.0\.2\.300 \+all$/);
    const error = within(screen.getByRole('region', { name: 'Errors' })).getAllByRole('listitem')[0]!;
    expect(error).toHaveTextContent('MUST');
    expect(within(error).getByTestId('diagnostic-position')).toHaveTextContent('192.0.2.300');
  });

  it('counts every include towards the limit and turns the budget red past 10', async () => {
    const { user } = setup();
    for (const name of [
      'Google Workspace',
      'Microsoft 365',
      'Amazon SES',
      'Mailgun',
      'SendGrid',
      'Zoho Mail',
    ]) {
      await user.click(screen.getByRole('checkbox', { name: new RegExp(`^${name}`) }));
    }
    for (let i = 1; i <= 5; i += 1) {
      await user.click(screen.getByRole('button', { name: 'Add mechanism' }));
      await user.selectOptions(screen.getByLabelText(`Mechanism ${i}`), 'include');
      await user.click(screen.getByLabelText(`Value ${i}`));
      await user.paste(`s${i}.example.net`);
    }
    expect(screen.getByTestId('lookup-budget')).toHaveTextContent(
      'DNS lookups in this record: 11 of 10, over the limit: receivers return permerror',
    );
    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(
      within(errors)
        .getAllByRole('listitem')
        .some((item) => item.getAttribute('data-code') === 'SPF_LOOKUP_LIMIT'),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Remove mechanism 5' }));
    expect(screen.getByTestId('lookup-budget')).toHaveTextContent('10 of 10, close to the limit');
  });

  it('writes redirect= and exp= after the mechanisms and drops all when asked', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: /^No all/ }));
    await user.type(screen.getByLabelText('Redirect (redirect=)'), '_spf.example.com');
    await user.type(screen.getByLabelText('Explanation (exp=)'), 'why.example.com');
    expect(record()).toHaveTextContent(/^v=spf1 redirect=_spf\.example\.com exp=why\.example\.com$/);
  });
});
