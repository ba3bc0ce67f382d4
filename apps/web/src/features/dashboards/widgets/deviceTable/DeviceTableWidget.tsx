import { Group, Pagination, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { describeError } from '../../../../shared/http/describe.ts';
import { hasStatus } from '../../../../shared/http/errors.ts';
import { useLiveDevices } from '../../../../shared/live/use-live-devices.ts';
import { fetchDevices } from '../../../devices/api.ts';
import { DeviceStatusBadge } from '../../../devices/DeviceStatusBadge.tsx';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';

/** The organization's devices by label with their status, live (experimental `deviceTableWidget`). */
export function DeviceTableWidget({ widget }: WidgetPropsOf<'deviceTable'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [page, setPage] = useState(0);
  const pageSize = widget.options.pageSize;
  const devices = useQuery({
    queryKey: ['dashboard-device-table', organization.id, page, pageSize],
    queryFn: async ({ signal }) =>
      fetchDevices(await token(), organization.id, { page, pageSize, sort: 'label', order: 'asc' }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const items = devices.data?.items ?? [];
  const live = useLiveDevices(items.map((device) => device.id));

  if (devices.isPending) return <Placeholder loading message={t('common.loading')} />;
  if (devices.isError) {
    return (
      <Placeholder
        message={
          hasStatus(devices.error, 403) ? t('dashboardWidgets.forbidden') : describeError(t, devices.error)
        }
      />
    );
  }
  if (items.length === 0) return <Placeholder message={t('dashboardWidgets.deviceTable.empty')} />;
  const pages = Math.max(1, Math.ceil((devices.data?.total ?? 0) / pageSize));
  return (
    <Stack h="100%" gap={4}>
      <ScrollArea style={{ flex: 1, minHeight: 0 }} type="auto">
        <Table striped fz="sm" verticalSpacing={4} data-testid="device-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboardWidgets.deviceTable.device')}</Table.Th>
              <Table.Th>{t('dashboardWidgets.deviceTable.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((device) => (
              <Table.Tr key={device.id}>
                <Table.Td>
                  <Text size="sm" truncate>
                    {device.label}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <DeviceStatusBadge status={live.status[device.id] ?? device.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pages > 1 && (
        <Group justify="center">
          <Pagination size="xs" total={pages} value={page + 1} onChange={(next) => setPage(next - 1)} />
        </Group>
      )}
    </Stack>
  );
}
