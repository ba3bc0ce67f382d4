import {
  Badge,
  Button,
  Code,
  CopyButton,
  Loader,
  Pagination,
  Group as Row,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type ClientDetail, type DeviceLicenseStatus, fetchClientDeviceLicenses } from './api.ts';
import { EnterClientLink } from './EnterClientLink.tsx';
import { formatCount, formatDate } from './format.ts';
import { DEALER_KEY } from './query-keys.ts';

const PAGE_SIZE = 25;
const KEY_STATUS_COLOR: Record<DeviceLicenseStatus, string> = {
  AVAILABLE: 'blue',
  ACTIVE: 'teal',
  EXPIRED: 'gray',
};
type Filter = 'all' | DeviceLicenseStatus;

/**
 * The client's device licences: how many are available, active and expired, and the activation keys themselves so
 * the dealer can hand one over (the dealer issued them: they are read through the dealer organization, in full).
 */
export function DeviceKeys({ detail }: { detail: ClientDetail }) {
  const { t, i18n } = useTranslation();
  const counts = detail.deviceLicenses;
  const cells = [
    ['available', counts.available],
    ['active', counts.active],
    ['expired', counts.expired],
    ['total', counts.total],
  ] as const;
  return (
    <Stack gap="md">
      <SimpleGrid cols={4} spacing="sm" data-testid="client-key-counts">
        {cells.map(([key, value]) => (
          <Stack key={key} gap={0} data-count={key}>
            <Text size="xs" c="dimmed">
              {t(`dealer.keys.counts.${key}`)}
            </Text>
            <Text fw={600}>{formatCount(value, i18n.language)}</Text>
          </Stack>
        ))}
      </SimpleGrid>
      <KeyList detail={detail} />
    </Stack>
  );
}

function KeyList({ detail }: { detail: ClientDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState<Filter>('all');
  const keys = useQuery({
    queryKey: [
      DEALER_KEY,
      organization.id,
      'client-keys',
      detail.client.id,
      page,
      filter,
      detail.deviceLicenses,
    ],
    queryFn: async ({ signal }) =>
      fetchClientDeviceLicenses(
        await token(),
        organization.id,
        detail.client.id,
        { page, pageSize: PAGE_SIZE, status: filter === 'all' ? undefined : filter },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  // The client's own screens open when the dealer user's organization rights reach into sub-organizations.
  const mayEnterClient = ability.can('READ', 'organizations') && ability.can('INHERIT', 'organizations');

  return (
    <Stack gap="sm">
      <Row justify="space-between">
        <SegmentedControl
          size="xs"
          aria-label={t('dealer.keys.filter')}
          value={filter}
          onChange={(value) => {
            setFilter(value as Filter);
            setPage(0);
          }}
          data={[
            { value: 'all', label: t('dealer.keys.all') },
            { value: 'AVAILABLE', label: t('dealer.keys.status.AVAILABLE') },
            { value: 'ACTIVE', label: t('dealer.keys.status.ACTIVE') },
            { value: 'EXPIRED', label: t('dealer.keys.status.EXPIRED') },
          ]}
        />
        {mayEnterClient && (
          <Row gap="md">
            <EnterClientLink clientId={detail.client.id} path="/organizations/resources">
              {t('dealer.keys.openResources')}
            </EnterClientLink>
            <EnterClientLink clientId={detail.client.id} path="/organizations/consumptions">
              {t('dealer.keys.openConsumption')}
            </EnterClientLink>
          </Row>
        )}
      </Row>
      {keys.isError && (
        <LoadFailed
          title={t('dealer.keys.loadFailed')}
          message={describeError(t, keys.error)}
          onRetry={() => void keys.refetch()}
        />
      )}
      {keys.isPending && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {keys.data?.items.length === 0 && (
        <Stack gap={4} align="center" py="lg" data-testid="client-keys-empty">
          <Text fw={500}>{t('dealer.keys.empty')}</Text>
          <Text size="sm" c="dimmed">
            {t('dealer.keys.emptyHint')}
          </Text>
        </Stack>
      )}
      {keys.data && keys.data.items.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table
            aria-label={t('dealer.keys.tableLabel', { name: detail.client.name })}
            aria-busy={keys.isFetching}
            highlightOnHover
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dealer.keys.columns.key')}</Table.Th>
                <Table.Th>{t('dealer.keys.columns.status')}</Table.Th>
                <Table.Th>{t('dealer.keys.columns.kind')}</Table.Th>
                <Table.Th>{t('dealer.keys.columns.device')}</Table.Th>
                <Table.Th>{t('dealer.keys.columns.expiresAt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.items.map((key) => (
                <Table.Tr key={key.id} data-testid="client-key" data-status={key.status}>
                  <Table.Td>
                    <Row gap={4} wrap="nowrap">
                      <Code data-testid="activation-key" style={{ whiteSpace: 'nowrap' }}>
                        {key.activationKey}
                      </Code>
                      <CopyButton value={key.activationKey}>
                        {({ copied, copy }) => (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color={copied ? 'teal' : undefined}
                            onClick={copy}
                            aria-label={t('dealer.keys.copyLabel', { key: key.activationKey })}
                          >
                            {copied ? t('dealer.keys.copied') : t('dealer.keys.copy')}
                          </Button>
                        )}
                      </CopyButton>
                    </Row>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={KEY_STATUS_COLOR[key.status]}
                      variant="light"
                      tt="none"
                      style={{ minWidth: 'max-content' }}
                    >
                      {t(`dealer.keys.status.${key.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{key.vpn ? t('dealer.keys.vpn') : t('dealer.keys.device')}</Table.Td>
                  <Table.Td>{key.device?.label ?? '—'}</Table.Td>
                  <Table.Td>{formatDate(key.expiresAt, i18n.language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {keys.data && keys.data.total > PAGE_SIZE && (
        <Pagination
          total={Math.ceil(keys.data.total / PAGE_SIZE)}
          value={page + 1}
          onChange={(next) => setPage(next - 1)}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
        />
      )}
      <Text size="xs" c="dimmed">
        {t('dealer.keys.total', { count: keys.data?.total ?? 0 })}
      </Text>
      {keys.isFetching && !keys.isPending && <Loader size="xs" aria-label={t('common.loading')} />}
    </Stack>
  );
}
