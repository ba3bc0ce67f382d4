import { ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { bindingLabel, formatTime, formatValue, withUnit } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingsTick } from '../use-binding.ts';
import type { WidgetPropsOf } from '../widget-props.ts';

/** The current value of each bound path, one row each (re-rendered only when one of them changes). */
export function TableWidget({ widget, runtime }: WidgetPropsOf<'table'>) {
  const { t, i18n } = useTranslation();
  useBindingsTick(runtime, widget.bindings);
  if (widget.bindings.length === 0) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  return (
    <ScrollArea h="100%" type="auto">
      <Table striped highlightOnHover fz="sm" verticalSpacing={4} data-testid="value-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dashboardWidgets.table.name')}</Table.Th>
            <Table.Th ta="right">{t('dashboardWidgets.table.value')}</Table.Th>
            <Table.Th>{t('dashboardWidgets.table.time')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {widget.bindings.map((binding, index) => {
            const value = runtime.valueOf(binding);
            const noDevice = 'slot' in binding && runtime.deviceOf(binding.slot) === undefined;
            const unit = runtime.metaOf?.(binding)?.unit;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same path may be bound twice; the order is the document's.
              <Table.Tr key={index}>
                <Table.Td>
                  <Text size="sm" truncate>
                    {bindingLabel(binding, runtime.slotLabel)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" data-testid="table-value">
                  {value
                    ? withUnit(formatValue(t, i18n.language, value.value), unit)
                    : noDevice
                      ? t('dashboardWidgets.table.noDevice')
                      : '—'}
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {value ? formatTime(i18n.language, value.ts) : ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
