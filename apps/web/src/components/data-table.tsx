import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

import { TableScroll } from './table-scroll.tsx';

export interface DataColumn<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell names its row (a `th` with scope=row), e.g. the tag a row explains. */
  rowHeader?: boolean;
  /** Extra props of the column's cells. */
  cellProps?: Record<string, unknown>;
}

interface DataTableProps<Row> extends Omit<TableProps, 'children'> {
  /** Names the scroll region for screen readers. */
  label: string;
  /** Below this width the table scrolls sideways instead of squeezing. */
  minWidth: number;
  caption?: ReactNode;
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  columns: readonly DataColumn<Row>[];
  /** Extra props of each row, e.g. a test id. */
  rowProps?: (row: Row) => Record<string, unknown>;
}

/** A table of reference rows or results: headed columns, one row an entry, scrolling on narrow screens. */
export function DataTable<Row>({
  label,
  minWidth,
  caption,
  rows,
  rowKey,
  columns,
  rowProps,
  ...tableProps
}: DataTableProps<Row>) {
  return (
    <TableScroll label={label} minWidth={minWidth}>
      <Table withTableBorder {...tableProps}>
        {caption !== undefined && <Table.Caption>{caption}</Table.Caption>}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={index} scope="col">
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)} {...rowProps?.(row)}>
              {columns.map((column, columnIndex) =>
                column.rowHeader ? (
                  <Table.Th key={columnIndex} scope="row" {...column.cellProps}>
                    {column.cell(row)}
                  </Table.Th>
                ) : (
                  <Table.Td key={columnIndex} {...column.cellProps}>
                    {column.cell(row)}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

/** One labelled value of a result's field table: the label heads the row, long values wrap. */
export function FieldRow({
  label,
  children,
  testId,
  labelWidth = 200,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  /** The label column's width from the small breakpoint up. */
  labelWidth?: number;
}) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={{ base: 120, sm: labelWidth }} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Table.Td>
    </Table.Tr>
  );
}
