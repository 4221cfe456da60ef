import { Box, Paper, Stack, Table, Text, type TableProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

import { TableScroll } from './table-scroll.tsx';

export interface DataColumn<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell names its row (a `th` with scope=row), e.g. the tag a row explains. */
  rowHeader?: boolean;
  /** Extra props of the column's cells. */
  cellProps?: Record<string, unknown>;
  /** The label of the column's value in a stacked card; null shows the value alone (e.g. row actions). */
  cardLabel?: ReactNode;
}

/** Below this width (600 px) rows become stacked cards: a phone has no room for side-by-side columns. */
export const stackedQuery = '(max-width: 37.49em)';

interface DataTableProps<Row> extends Omit<TableProps, 'children'> {
  /** Names the scroll region for screen readers. */
  label: string;
  /** Below this width the table scrolls sideways instead of squeezing. */
  minWidth: number;
  caption?: ReactNode | undefined;
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  columns: readonly DataColumn<Row>[];
  /** Extra props of each row, e.g. a test id. */
  rowProps?: ((row: Row) => Record<string, unknown>) | undefined;
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
  const stacked = useMediaQuery(stackedQuery, false, { getInitialValueInEffect: false });
  if (stacked) {
    return (
      <StackedRows
        label={label}
        caption={caption}
        rows={rows}
        rowKey={rowKey}
        columns={columns}
        rowProps={rowProps}
      />
    );
  }
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

/** A width fitted to a table column does not suit a card's full-width value. */
function withoutWidth(props: Record<string, unknown> | undefined): Record<string, unknown> {
  const rest = { ...props };
  delete rest.w;
  return rest;
}

/** The rows as a list of cards, each a list of label: value pairs, in the table's column order. */
function StackedRows<Row>({
  label,
  caption,
  rows,
  rowKey,
  columns,
  rowProps,
}: Pick<DataTableProps<Row>, 'label' | 'caption' | 'rows' | 'rowKey' | 'columns' | 'rowProps'>) {
  return (
    <Stack gap="xs">
      {caption !== undefined && (
        <Text size="sm" c="dimmed">
          {caption}
        </Text>
      )}
      <Stack component="ul" aria-label={label} gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
        {rows.map((row, index) => (
          <Paper component="li" withBorder p="sm" key={rowKey(row, index)} {...rowProps?.(row)}>
            <Stack component="dl" gap={6} m={0} style={{ overflowWrap: 'anywhere' }}>
              {columns.map((column, columnIndex) => {
                const cardLabel = column.cardLabel === undefined ? column.header : column.cardLabel;
                return (
                  <Box key={columnIndex}>
                    {cardLabel !== null && (
                      <Text component="dt" size="xs" fw={700} c="dimmed" tt="uppercase">
                        {cardLabel}
                      </Text>
                    )}
                    <Box
                      component="dd"
                      m={0}
                      {...(column.rowHeader ? { fw: 600 } : {})}
                      {...withoutWidth(column.cellProps)}
                    >
                      {column.cell(row)}
                    </Box>
                  </Box>
                );
              })}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Stack>
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
