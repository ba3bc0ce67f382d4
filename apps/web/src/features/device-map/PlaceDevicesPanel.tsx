import { Button, Pagination, Paper, Group as Row, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { fetchDevices } from '../devices/api.ts';
import { DEVICES_KEY } from '../devices/query-keys.ts';

const PAGE_SIZE = 8;

/** The devices that have no position yet; choosing one starts placing it on the map. */
export function PlaceDevicesPanel({
  placing,
  onChoose,
}: {
  placing: string | null;
  onChoose: (device: { id: string; label: string }) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [page, setPage] = useState(0);
  const request = {
    page,
    pageSize: PAGE_SIZE,
    positioned: false,
    search: debounced.trim() || undefined,
    sort: 'label',
    order: 'asc' as const,
  };
  const unplaced = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchDevices(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });
  const pages = Math.ceil((unplaced.data?.total ?? 0) / PAGE_SIZE);

  return (
    <Paper withBorder p="sm" w={260} data-testid="place-devices">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('deviceMap.unplaced.title')}
        </Title>
        <TextInput
          aria-label={t('deviceMap.unplaced.search')}
          placeholder={t('deviceMap.unplaced.search')}
          size="xs"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
        />
        {unplaced.isError && (
          <Text size="sm" c="red">
            {describeError(t, unplaced.error)}
          </Text>
        )}
        {unplaced.data?.items.length === 0 && (
          <Text size="sm" c="dimmed">
            {debounced ? t('deviceMap.unplaced.noMatch') : t('deviceMap.unplaced.none')}
          </Text>
        )}
        {unplaced.data?.items.map((device) => (
          <Row key={device.id} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" truncate>
              {device.label}
            </Text>
            <Button
              size="compact-xs"
              variant={placing === device.id ? 'filled' : 'light'}
              onClick={() => onChoose({ id: device.id, label: device.label })}
              aria-label={t('deviceMap.unplaced.place', { label: device.label })}
            >
              {t('deviceMap.unplaced.placeShort')}
            </Button>
          </Row>
        ))}
        {pages > 1 && (
          <Pagination
            size="xs"
            total={pages}
            value={page + 1}
            onChange={(next) => setPage(next - 1)}
            getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
            getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
          />
        )}
      </Stack>
    </Paper>
  );
}
