import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18next from 'i18next';
import type { ReactNode } from 'react';

export type ConfirmDangerOptions = {
  title: ReactNode;
  /** A text is shown as a small paragraph; anything else is shown as it is. */
  message: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => unknown;
  /** The confirm button's colour: red unless the step is merely risky. */
  color?: 'red' | 'orange';
};

/** Asks before a destructive step: a modal with the message, a coloured confirm button and "Cancel". */
export function confirmDanger({
  title,
  message,
  confirmLabel,
  onConfirm,
  color = 'red',
}: ConfirmDangerOptions) {
  modals.openConfirmModal({
    title,
    children: typeof message === 'string' ? <Text size="sm">{message}</Text> : message,
    labels: { confirm: confirmLabel, cancel: i18next.t('common.cancel') },
    confirmProps: { color },
    onConfirm: () => void onConfirm(),
  });
}
