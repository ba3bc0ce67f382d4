import { Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { describeError } from '../../../../shared/http/describe.ts';
import { hasStatus } from '../../../../shared/http/errors.ts';
import { useLiveAlarms } from '../../../../shared/live/use-live-alarms.ts';
import { searchAlarms } from '../../../alarms/api.ts';
import { SeverityBadge } from '../../../alarms/SeverityBadge.tsx';
import { formatTime } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';

/**
 * The open alarms, newest first: of the slot's device when the widget names a slot, else of the organization. Loaded
 * again whenever an alarm of interest changes live.
 */
export function AlarmListWidget({ widget, runtime }: WidgetPropsOf<'alarmList'>) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const { slot, limit } = widget.options;
  const deviceId = slot ? runtime.deviceOf(slot) : undefined;
  const waiting = slot !== undefined && deviceId === undefined;
  const alarms = useQuery({
    queryKey: ['dashboard-alarms', organization.id, deviceId ?? null, limit],
    queryFn: async ({ signal }) =>
      searchAlarms(
        await token(),
        organization.id,
        { open: true, ...(deviceId && { deviceId }), pageSize: limit, sort: 'raisedAt', order: 'desc' },
        signal,
      ),
    enabled: !waiting,
    retry: (count, error) => !hasStatus(error, 403) && count < 2,
  });
  useLiveAlarms(
    {
      onAlarm: (message) => {
        if (deviceId === undefined || message.alarm.deviceId === deviceId) void alarms.refetch();
      },
      onReconnect: () => void alarms.refetch(),
    },
    !waiting && !alarms.isError,
  );

  if (waiting)
    return (
      <Placeholder message={t('dashboardWidgets.noDevice', { slot: runtime.slotLabel?.(slot) ?? slot })} />
    );
  if (alarms.isPending) return <Placeholder loading message={t('common.loading')} />;
  if (alarms.isError) {
    return (
      <Placeholder
        message={
          hasStatus(alarms.error, 403) ? t('dashboardWidgets.forbidden') : describeError(t, alarms.error)
        }
      />
    );
  }
  const items = alarms.data.items;
  if (items.length === 0) return <Placeholder message={t('dashboardWidgets.alarmList.empty')} />;
  return (
    <ScrollArea h="100%" type="auto">
      <Stack gap={6} data-testid="alarm-list">
        {items.map((alarm) => (
          <Group key={alarm.id} gap="xs" wrap="nowrap" align="flex-start">
            <SeverityBadge severity={alarm.severity} />
            <Stack gap={0} miw={0}>
              <Text size="sm" lineClamp={2}>
                {alarm.message || alarm.name}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {[alarm.deviceLabel, formatTime(i18n.language, Date.parse(alarm.raisedAt))]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Stack>
          </Group>
        ))}
      </Stack>
    </ScrollArea>
  );
}
