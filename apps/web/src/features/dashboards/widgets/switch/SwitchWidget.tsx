import { Center, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatValue } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingValue } from '../use-binding.ts';
import { WriteError } from '../WriteError.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';
import { confirmAndWrite } from '../write.tsx';

/** A boolean path as a switch: flipping it writes the opposite value (after confirmation unless `confirm` is off). */
export function SwitchWidget({ widget, runtime }: WidgetPropsOf<'switch'>) {
  const { t, i18n } = useTranslation();
  const value = useBindingValue(runtime, widget.binding);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const binding = widget.binding;
  if (!binding) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  const checked = value?.value === true;
  const writable = runtime.metaOf?.(binding)?.writable ?? true;

  const flip = async () => {
    const next = !checked;
    setBusy(true);
    const outcome = await confirmAndWrite(
      t,
      runtime,
      binding,
      next,
      formatValue(t, i18n.language, next),
      widget.options.confirm,
    );
    setBusy(false);
    setError(outcome.error);
    if (outcome.written)
      notifications.show({
        color: 'teal',
        message: t('dashboardWidgets.write.sent', { path: binding.path }),
      });
  };

  return (
    <Center h="100%">
      <Stack gap={4} align="center">
        <Switch
          size="lg"
          checked={checked}
          disabled={busy || !writable || runtime.mode === 'edit'}
          onChange={() => void flip()}
          label={value ? formatValue(t, i18n.language, checked) : t('dashboardWidgets.noValue')}
          aria-label={widget.title || binding.path}
          data-testid="widget-switch"
        />
        <WriteError message={error} />
      </Stack>
    </Center>
  );
}
