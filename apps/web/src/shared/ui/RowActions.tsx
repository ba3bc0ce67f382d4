import { Button, Group, VisuallyHidden } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';

/**
 * The last column of a table: what can be done with the row (edit, delete, …), right-aligned on one line. Its header
 * is for screen readers only, and it does not sort.
 */
export function actionsColumn<Row>(header: string, actions: (row: Row) => ReactNode): ColumnDef<Row> {
  return {
    id: 'actions',
    header: () => <VisuallyHidden>{header}</VisuallyHidden>,
    enableSorting: false,
    cell: ({ row }) => (
      <Group gap="xs" wrap="nowrap" justify="flex-end">
        {actions(row.original)}
      </Group>
    ),
  };
}

/** One of a row's actions: a compact button whose accessible name says which row; `danger` for a destructive one. */
export function RowAction({
  label,
  onClick,
  danger = false,
  testId,
  children,
}: {
  /** The accessible name, e.g. "Delete group Packaging". */
  label: string;
  onClick: () => void;
  danger?: boolean;
  testId?: string;
  /** The short visible text, e.g. "Delete". */
  children: ReactNode;
}) {
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      color={danger ? 'red' : undefined}
      aria-label={label}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
