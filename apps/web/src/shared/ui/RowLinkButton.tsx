import { UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table row's name cell that opens the row (a drawer, an editor): looks like a link, acts as a button. */
export function RowLinkButton({
  onClick,
  label,
  children,
}: {
  onClick: () => void;
  /** The accessible name, e.g. "Open user ada@example.com". */
  label: string;
  children: ReactNode;
}) {
  return (
    <UnstyledButton onClick={onClick} fw={500} c="var(--mantine-primary-color-filled)" aria-label={label}>
      {children}
    </UnstyledButton>
  );
}
