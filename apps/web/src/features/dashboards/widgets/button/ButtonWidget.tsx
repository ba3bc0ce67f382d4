import { Button, Center, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatValue } from '../format.ts';
import { WriteError } from '../WriteError.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';
import { confirmWrite, writeFailure } from '../write.tsx';

/** Runs the button's action: go to a page, open another dashboard, set a variable, or write (confirmed unless off). */
export function ButtonWidget({ widget, runtime }: WidgetPropsOf<'button'>) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { action } = widget;

  const press = async () => {
    if (runtime.mode === 'edit') return;
    setError(null);
    if (
      action.kind === 'write' &&
      action.confirm !== false &&
      !(await confirmWrite(t, runtime, action.binding, formatValue(t, i18n.language, action.value)))
    ) {
      return;
    }
    setBusy(true);
    try {
      await runtime.run(action);
      if (action.kind === 'write') {
        notifications.show({
          color: 'teal',
          message: t('dashboardWidgets.write.sent', { path: action.binding.path }),
        });
      }
    } catch (failure) {
      setError(
        writeFailure(
          t,
          failure,
          action.kind === 'write' ? runtime.slotLabel?.(action.binding.slot) : undefined,
        ),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center h="100%">
      <Stack gap={4} align="center" w="100%">
        <Button
          onClick={() => void press()}
          loading={busy}
          maw="100%"
          data-testid="widget-button"
          data-action={action.kind}
          styles={{ label: { whiteSpace: 'normal' } }}
        >
          {widget.options.label}
        </Button>
        <WriteError message={error} />
      </Stack>
    </Center>
  );
}
