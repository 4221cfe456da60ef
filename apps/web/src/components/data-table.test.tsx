import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { DataTable, stackedQuery, type DataColumn } from './data-table.tsx';

interface Key {
  name: string;
  prefix: string;
}

const rows: Key[] = [
  { name: 'Deploy', prefix: 'rk_live_ab12' },
  { name: 'Monitoring', prefix: 'rk_live_cd34' },
];

const columns: DataColumn<Key>[] = [
  { header: 'Name', cell: (key) => key.name, rowHeader: true },
  { header: 'Key', cell: (key) => key.prefix, cellProps: { ff: 'monospace', w: 120 } },
  {
    header: 'Actions',
    cardLabel: null,
    cell: (key) => (
      <button type="button" aria-label={`Revoke ${key.name}`}>
        Revoke
      </button>
    ),
  },
];

/** The browser answers the stacked-card media query as a phone (below 600 px) would. */
function viewAsPhone() {
  const real = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const list = real(query);
    return query === stackedQuery ? { ...list, matches: true, media: query } : list;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DataTable', () => {
  it('shows a headed table with the column font on wide screens', () => {
    renderWithProviders(
      <DataTable label="API keys" minWidth={600} rows={rows} rowKey={(key) => key.name} columns={columns} />,
    );
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Key', 'Actions']);
    expect(within(table).getByRole('rowheader', { name: 'Deploy' })).toBeInTheDocument();
    expect(within(table).getByText('rk_live_ab12').style.fontFamily).toContain('monospace');
  });

  it('stacks rows into labelled cards below 600 px, keeping the column font and row actions', () => {
    viewAsPhone();
    renderWithProviders(
      <DataTable label="API keys" minWidth={600} rows={rows} rowKey={(key) => key.name} columns={columns} />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'API keys' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(within(first).getByText('Key').tagName).toBe('DT');
    const value = within(first).getByText('rk_live_ab12');
    expect(value.tagName).toBe('DD');
    expect(value.style.fontFamily).toContain('monospace');
    // a column width fitted to the table does not narrow the card's value
    expect(value.style.width).toBe('');
    // the actions column has no label of its own: its button names the row
    expect(within(first).queryByText('Actions')).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Revoke Deploy' })).toBeInTheDocument();
  });
});
