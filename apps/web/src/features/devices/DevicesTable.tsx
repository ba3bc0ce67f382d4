import { Badge, MultiSelect, Group as Row, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { useLiveDevices } from '../../shared/live/use-live-devices.ts';
import { DataTable, type PageRequest } from '../../shared/ui/DataTable.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { isFeatureEnabled } from '../experimental/flags.ts';
import {
  type Device,
  type DeviceListRequest,
  type DeviceStatus,
  fetchDevices,
  fetchTagCounts,
} from './api.ts';
import { BulkBar } from './BulkBar.tsx';
import { DeviceStatusBadge } from './DeviceStatusBadge.tsx';
import { absoluteTime, relativeTime } from './format.ts';
import { DEVICES_KEY } from './query-keys.ts';
import { useNow } from './use-now.ts';

type StatusFilter = 'all' | DeviceStatus;

/**
 * The devices table: server-side paging, sorting, search, status and tag filters (100,000 devices stay smooth: only
 * one page is ever loaded), live status of the rows shown, and row selection for bulk actions.
 */
export function DevicesTable({ onOpenDevice }: { onOpenDevice: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [request, setRequest] = useState<DeviceListRequest>({
    page: 0,
    pageSize: 50,
    sort: 'label',
    order: 'asc',
  });
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [hideSerial] = useState(() => isFeatureEnabled('hideDeviceSerialNumber'));
  const [hideDescription] = useState(() => isFeatureEnabled('hideDeviceDescription'));
  const now = useNow();
  const canBulk = ability.can('UPDATE', 'devices') || ability.can('DELETE', 'devices');

  const devices = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchDevices(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });
  const tagCounts = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'tags'],
    queryFn: async ({ signal }) => fetchTagCounts(await token(), organization.id, signal),
    staleTime: 60_000,
  });
  const pageIds = useMemo(() => devices.data?.items.map((device) => device.id) ?? [], [devices.data]);
  const live = useLiveDevices(pageIds, { values: false });

  const onRequestChange = useCallback(
    (next: PageRequest) => setRequest((current) => ({ ...current, ...next })),
    [],
  );
  const setFilter = (filter: Partial<DeviceListRequest>) =>
    setRequest((current) => ({ ...current, ...filter, page: 0 }));

  const columns = useMemo<ColumnDef<Device>[]>(() => {
    const all: (ColumnDef<Device> | false)[] = [
      {
        id: 'label',
        accessorKey: 'label',
        header: t('devices.columns.label'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => onOpenDevice(row.original.id)}
            label={t('devices.open', { label: row.original.label })}
          >
            {row.original.label}
          </RowLinkButton>
        ),
      },
      {
        id: 'alias',
        accessorKey: 'alias',
        header: t('devices.columns.alias'),
        cell: ({ row }) => row.original.alias ?? '',
      },
      !hideSerial && {
        id: 'serialNumber',
        accessorKey: 'serialNumber',
        header: t('devices.columns.serialNumber'),
        cell: ({ row }) => row.original.serialNumber,
      },
      !hideDescription && {
        id: 'description',
        header: t('devices.columns.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={1} maw={260}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: t('devices.columns.status'),
        cell: ({ row }) => <DeviceStatusBadge status={live.status[row.original.id] ?? row.original.status} />,
      },
      {
        id: 'lastSeenAt',
        accessorKey: 'lastSeenAt',
        header: t('devices.columns.lastSeenAt'),
        cell: ({ row }) => {
          const seen = row.original.lastSeenAt;
          if (!seen)
            return (
              <Text size="sm" c="dimmed">
                {t('devices.neverSeen')}
              </Text>
            );
          return (
            <Tooltip label={absoluteTime(seen, i18n.language)}>
              <Text size="sm" component="span" tabIndex={0}>
                {relativeTime(seen, now, i18n.language)}
              </Text>
            </Tooltip>
          );
        },
      },
      {
        id: 'tags',
        header: t('devices.columns.tags'),
        enableSorting: false,
        cell: ({ row }) => (
          <Row gap={4}>
            {row.original.tags.map((tag) => (
              <Badge key={tag} variant="outline" tt="none" size="sm">
                {tag}
              </Badge>
            ))}
          </Row>
        ),
      },
    ];
    return all.filter((column): column is ColumnDef<Device> => column !== false);
  }, [t, i18n.language, now, live.status, hideSerial, hideDescription, onOpenDevice]);

  const filtered = Boolean(request.search || request.status || request.tag?.length);
  const tagOptions = (tagCounts.data?.items ?? []).map((entry) => ({
    value: entry.tag,
    label: t('devices.filters.tagOption', { tag: entry.tag, count: entry.devices }),
  }));

  return (
    <Stack gap="sm">
      {canBulk && selected.size > 0 && (
        <BulkBar selected={selected} onDone={(keep) => setSelected(keep ? selected : new Set())} />
      )}
      <DataTable<Device>
        label={t('devices.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={onRequestChange}
        query={devices}
        rowId={(device) => device.id}
        selection={
          canBulk
            ? {
                selected,
                onChange: setSelected,
                rowLabel: (device) => t('devices.select.row', { label: device.label }),
                pageLabel: t('devices.select.page'),
              }
            : undefined
        }
        toolbar={
          <>
            <SegmentedControl
              aria-label={t('devices.filters.status')}
              size="xs"
              value={request.status ?? 'all'}
              onChange={(value) => {
                const status = value as StatusFilter;
                setFilter({ status: status === 'all' ? undefined : status });
              }}
              data={[
                { value: 'all', label: t('devices.filters.all') },
                { value: 'ONLINE', label: t('devices.status.ONLINE') },
                { value: 'OFFLINE', label: t('devices.status.OFFLINE') },
              ]}
            />
            <MultiSelect
              aria-label={t('devices.filters.tags')}
              placeholder={request.tag?.length ? undefined : t('devices.filters.tags')}
              data={tagOptions}
              value={request.tag ?? []}
              onChange={(tags) => setFilter({ tag: tags.length ? tags : undefined })}
              searchable
              clearable
              nothingFoundMessage={t('devices.filters.noTags')}
              w={260}
              size="xs"
              data-testid="tag-filter"
            />
          </>
        }
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>{filtered ? t('devices.empty.noMatch') : t('devices.empty.title')}</Text>
            <Text size="sm" c="dimmed">
              {filtered ? t('devices.empty.noMatchHint') : t('devices.empty.hint')}
            </Text>
          </Stack>
        }
      />
    </Stack>
  );
}
