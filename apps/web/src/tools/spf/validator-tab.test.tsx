import { createFixtureResolver, lintSpf, spfOperations } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// The API's answers are what the server computes: lintSpf from @rfckit/standards, over zone data.
// over.example has 11 includes, each with a record of its own: one lookup past the limit.
const chain: Record<string, { TXT?: string; A?: string }> = {
  'over.example': {
    TXT: `v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i + 1}.over.example`).join(' ')} -all`,
  },
  'good.example': { TXT: 'v=spf1 ip4:192.0.2.0/24 include:_spf.good.example -all' },
  '_spf.good.example': { TXT: 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/32 -all' },
};
for (let i = 1; i <= 11; i += 1) chain[`s${i}.over.example`] = { TXT: `v=spf1 ip4:203.0.113.${i} -all` };
const resolver = createFixtureResolver(chain);

describe('SPF validator', () => {
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

  it('asks for a domain or a record on submit, and refuses `not a domain!` without a request', async () => {
    const fetchMock = succeedWith(await lintSpf({ domain: 'good.example' }, { resolver }));
    const user = setup(fetchMock);
    const button = screen.getByRole('button', { name: 'Validate' });
    expect(button).toBeEnabled();
    await user.click(button);
    expect(screen.getByLabelText(/^Domain/)).toHaveAccessibleDescription(
      expect.stringContaining('Domain is required'),
    );
    await user.type(screen.getByLabelText(/^Domain/), 'not a domain!');
    await user.tab();
    expect(screen.getByLabelText(/^Domain/)).toHaveAccessibleDescription(
      expect.stringContaining("'not a domain!' is not a domain name: it contains a space"),
    );
    await user.click(button);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks a pasted record without a domain', async () => {
    const record = 'v=spf1 mx include:_spf.good.example -all';
    const fetchMock = succeedWith(await lintSpf({ domain: '', record }, { resolver }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^SPF record/), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Record checked on its own')).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ spfRecord: record });
    expect(screen.getAllByText(/enter the domain to resolve it/).length).toBeGreaterThan(0);
  });

  it('shows the fix of ip4:300.1.1.1 and the corrected record to copy', async () => {
    const record = 'v=spf1 ip4:300.1.1.1 include:_spf.good.example -all';
    const fetchMock = succeedWith(await lintSpf({ domain: '', record }, { resolver }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^SPF record/), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText(/Correct the address of ip4/)).toBeInTheDocument();
    const corrected = screen.getByRole('region', { name: 'Corrected record' });
    expect(within(corrected).getByTestId('corrected-record')).toHaveTextContent(
      'v=spf1 include:_spf.good.example -all',
    );
    expect(within(corrected).getByRole('button', { name: 'Copy the corrected record' })).toBeInTheDocument();
    expect(within(corrected).getByRole('list', { name: 'What changed' })).toHaveTextContent(
      "Removed 'ip4:300.1.1.1'",
    );
  });

  it('shows the include tree, the lookup budget and the permerror of a chain over the limit', async () => {
    const fetchMock = succeedWith(await lintSpf({ domain: 'over.example' }, { resolver }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'over.example');
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(
      await screen.findByRole('heading', { name: 'SPF permerror: receivers fail this record' }),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${spfOperations.verify.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'over.example' });

    expect(screen.getByTestId('lookup-budget')).toHaveTextContent(
      'DNS lookups: 11 of 10, over the limit: receivers return permerror',
    );
    expect(screen.getByRole('progressbar', { name: /DNS lookups: 11 of 10/ })).toBeInTheDocument();

    const tree = screen.getByRole('tree', { name: 'Include tree' });
    const items = within(tree).getAllByRole('treeitem');
    expect(items).toHaveLength(12);
    expect(items[0]).toHaveTextContent('over.example');
    // each item is named by its own summary, not by the text of its whole branch
    expect(items[0]).toHaveAccessibleName('over.example, record found, 11 lookups');
    expect(
      within(tree).getByRole('treeitem', { name: 's11.over.example, record found, 0 lookups' }),
    ).toBeInTheDocument();

    const errors = screen.getByRole('region', { name: 'Errors' });
    const limit = within(errors)
      .getAllByRole('listitem')
      .find((item) => item.getAttribute('data-code') === 'SPF_LOOKUP_LIMIT');
    expect(limit).toBeDefined();
    expect(limit).toHaveTextContent('MUST');
    expect(limit).toHaveTextContent('RFC 7208 §4.6.4');
    // the position points at the 11th include in the record
    expect(within(limit!).getByTestId('diagnostic-position')).toHaveTextContent('include:s11.over.example');
  });

  it('lets the keyboard walk and fold the tree', async () => {
    const fetchMock = succeedWith(await lintSpf({ domain: 'good.example' }, { resolver }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'good.example');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const tree = await screen.findByRole('tree', { name: 'Include tree' });
    const [root, child] = within(tree).getAllByRole('treeitem');
    expect(root).toHaveAttribute('aria-expanded', 'true');
    root!.focus();
    await user.keyboard('{ArrowDown}');
    expect(child).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowLeft}');
    expect(root).toHaveAttribute('aria-expanded', 'false');
  });

  it('checks a pasted record as if published and lists the resolved networks with the staleness warning', async () => {
    const record = 'v=spf1 ip4:192.0.2.1 ptr include:_spf.good.example ~all';
    const fetchMock = succeedWith(await lintSpf({ domain: 'good.example', record }, { resolver }));
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'good.example');
    await user.click(screen.getByLabelText(/^SPF record/));
    await user.paste(record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByText('Record checked as if published at good.example')).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      domain: 'good.example',
      spfRecord: record,
    });
    const ptr = screen.getAllByRole('listitem').find((item) => item.getAttribute('data-code') === 'SPF_PTR');
    expect(ptr).toHaveTextContent('SHOULD NOT');
    expect(within(ptr!).getByTestId('diagnostic-position')).toHaveTextContent('Characters 22–24: ptr');

    const networks = screen.getByRole('region', { name: 'Resolved networks' });
    expect(within(networks).getByText('Flattening goes stale')).toBeInTheDocument();
    const table = within(networks).getByRole('table');
    expect(within(table).getByText('192.0.2.1/32')).toBeInTheDocument();
    expect(within(table).getByText('2001:db8::/32')).toBeInTheDocument();
  });

  it("says 'Failed to verify SPF record' when the server gives no message, and the server's message when it does", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response('<html>bad gateway</html>', { status: 502 }))
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({ success: false, error: 'Domain is required', code: 'VALIDATION_FAILED' }),
          {
            status: 400,
            headers: { 'Content-Type': 'application/json' },
          },
        ),
      );
    const user = setup(fetchMock);
    await user.type(screen.getByLabelText(/^Domain/), 'good.example');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const panel = screen.getByRole('region', { name: 'Validation result' });
    expect(await within(panel).findByText('Failed to verify SPF record')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await within(panel).findByText('Domain is required')).toBeInTheDocument();
  });
});
