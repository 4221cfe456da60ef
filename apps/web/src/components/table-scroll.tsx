import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

interface TableScrollProps {
  /** Names the scrollable region for screen readers, e.g. the table's caption. */
  label: string;
  /** Below this width the table scrolls sideways instead of squeezing. */
  minWidth: number;
  children: ReactNode;
}

/** A wide table that scrolls on narrow screens; focusable so keyboard users can scroll it too. */
export function TableScroll({ label, minWidth, children }: TableScrollProps) {
  return (
    <Table.ScrollContainer
      type="native"
      minWidth={minWidth}
      tabIndex={0}
      role="region"
      aria-label={label}
      // the containing block of absolutely placed content (visually hidden headers), so it scrolls too
      style={{ position: 'relative' }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
