import { Button, Center, Group, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatValue, numeric, withUnit } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingValue } from '../use-binding.ts';
import { WriteError } from '../WriteError.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';
import { confirmAndWrite } from '../write.tsx';

/** A number typed and written to a path, after "Write 42 °C to /line/setpoint of Press 1?". */
export function SetpointWidget({ widget, runtime }: WidgetPropsOf<'setpoint'>) {
  const { t, i18n } = useTranslation();
  const value = useBindingValue(runtime, widget.binding);
  const [draft, setDraft] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const binding = widget.binding;
  if (!binding) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  const { min, max, step } = widget.options;
  const meta = runtime.metaOf?.(binding);
  const unit = widget.options.unit ?? meta?.unit ?? undefined;
  const writable = meta?.writable ?? true;
  const target = typeof draft === 'number' ? draft : undefined;
  const outOfRange =
    target !== undefined && ((min !== undefined && target < min) || (max !== undefined && target > max));
  const current = numeric(value?.value);

  const write = async () => {
    if (target === undefined || outOfRange) return;
    setBusy(true);
    const outcome = await confirmAndWrite(
      t,
      runtime,
      binding,
      target,
      withUnit(formatValue(t, i18n.language, target), unit),
      true,
    );
    setBusy(false);
    setError(outcome.error);
    if (outcome.written) {
      setDraft('');
      notifications.show({
        color: 'teal',
        message: t('dashboardWidgets.write.sent', { path: binding.path }),
      });
    }
  };

  return (
    <Center h="100%">
      <Stack gap={4} w="100%" maw={320}>
        <Text size="xs" c="dimmed" ta="center" data-testid="setpoint-current">
          {current === null
            ? t('dashboardWidgets.noValue')
            : t('dashboardWidgets.setpoint.current', {
                value: withUnit(formatValue(t, i18n.language, current), unit),
              })}
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void write();
          }}
        >
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <NumberInput
              size="xs"
              style={{ flex: 1 }}
              value={draft}
              onChange={setDraft}
              min={min}
              max={max}
              step={step}
              placeholder={current === null ? undefined : formatValue(t, i18n.language, current)}
              rightSection={unit ? <Text size="xs">{unit}</Text> : undefined}
              aria-label={t('dashboardWidgets.setpoint.input', { path: binding.path })}
              error={
                outOfRange
                  ? t('dashboardWidgets.setpoint.range', { min: min ?? '−∞', max: max ?? '∞' })
                  : undefined
              }
              disabled={!writable || runtime.mode === 'edit'}
              data-testid="setpoint-input"
            />
            <Button
              size="xs"
              type="submit"
              loading={busy}
              disabled={target === undefined || outOfRange || !writable || runtime.mode === 'edit'}
            >
              {t('dashboardWidgets.setpoint.write')}
            </Button>
          </Group>
        </form>
        {!writable && (
          <Text size="xs" c="dimmed" ta="center">
            {t('dashboardWidgets.setpoint.readOnly')}
          </Text>
        )}
        <WriteError message={error} />
      </Stack>
    </Center>
  );
}
