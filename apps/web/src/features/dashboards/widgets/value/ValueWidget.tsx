import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, formatValue, withUnit } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingValue } from '../use-binding.ts';
import type { WidgetPropsOf } from '../widget-props.ts';

/** One value, large, with its unit; the time it was measured in the tooltip. */
export function ValueWidget({ widget, runtime }: WidgetPropsOf<'value'>) {
  const { t, i18n } = useTranslation();
  const value = useBindingValue(runtime, widget.binding);
  if (!widget.binding) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  if (!value) {
    const loading = 'slot' in widget.binding && (runtime.loading?.(widget.binding.slot) ?? false);
    return (
      <Placeholder loading={loading} message={t(loading ? 'common.loading' : 'dashboardWidgets.noValue')} />
    );
  }
  const unit = widget.options.unit ?? runtime.metaOf?.(widget.binding)?.unit;
  const shown = withUnit(formatValue(t, i18n.language, value.value, widget.options.decimals), unit);
  return (
    <Stack h="100%" justify="center" align="center" gap={0} style={{ containerType: 'size' }}>
      <Text
        fw={700}
        ta="center"
        lh={1.1}
        title={formatTime(i18n.language, value.ts)}
        data-testid="widget-value"
        style={{ fontSize: 'clamp(0.9rem, min(45cqh, 14cqw), 4rem)', overflowWrap: 'anywhere' }}
      >
        {shown}
      </Text>
    </Stack>
  );
}
