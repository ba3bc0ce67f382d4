import { Anchor, Drawer, Loader, Group as Row, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isNotFound } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type ClientDetail, fetchClient } from './api.ts';
import { ClientInvoices } from './ClientInvoices.tsx';
import { ClientLicenses } from './ClientLicenses.tsx';
import { DeviceKeys } from './DeviceKeys.tsx';
import { formatCount } from './format.ts';
import { DEALER_KEY } from './query-keys.ts';

type Props = { clientId: string | null; onClose: () => void };

/** One client: what it holds and uses, its licences (issue, renew, autorenew, revoke), activation keys, invoices. */
export function ClientDrawer({ clientId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const detail = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'client', clientId],
    queryFn: async ({ signal }) => fetchClient(await token(), organization.id, clientId ?? '', signal),
    enabled: clientId !== null,
    // The client acts too (activates devices and licences): what the drawer shows is read when it opens.
    staleTime: 0,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
  });

  return (
    <Drawer
      opened={clientId !== null}
      onClose={onClose}
      position="right"
      size={960}
      title={detail.data?.client.name ?? t('dealer.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {detail.isPending && clientId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {detail.isError && (
        <LoadFailed
          title={t('dealer.drawer.loadFailed')}
          message={isNotFound(detail.error) ? t('dealer.drawer.gone') : describeError(t, detail.error)}
          onRetry={() => void detail.refetch()}
        />
      )}
      {detail.data && <ClientSections detail={detail.data} />}
    </Drawer>
  );
}

function ClientSections({ detail }: { detail: ClientDetail }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="licenses" keepMounted={false} data-testid="client-drawer">
      <Tabs.List aria-label={t('dealer.drawer.sections')}>
        <Tabs.Tab value="licenses">{t('dealer.drawer.licenses', { count: detail.licenses.length })}</Tabs.Tab>
        <Tabs.Tab value="keys">{t('dealer.drawer.keys', { count: detail.deviceLicenses.total })}</Tabs.Tab>
        <Tabs.Tab value="invoices">{t('dealer.drawer.invoices')}</Tabs.Tab>
        <Tabs.Tab value="resources">{t('dealer.drawer.resources')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="licenses" pt="md">
        <ClientLicenses detail={detail} />
      </Tabs.Panel>
      <Tabs.Panel value="keys" pt="md">
        <DeviceKeys detail={detail} />
      </Tabs.Panel>
      <Tabs.Panel value="invoices" pt="md">
        <ClientInvoices client={detail.client} />
      </Tabs.Panel>
      <Tabs.Panel value="resources" pt="md">
        <ClientResources detail={detail} />
      </Tabs.Panel>
    </Tabs>
  );
}

/** Per resource type: what the client's ACTIVE licences allow, what it uses (metered), and what is left. */
function ClientResources({ detail }: { detail: ClientDetail }) {
  const { t, i18n } = useTranslation();
  const { ability } = useOrganizationApi();
  const count = (value: number) => formatCount(value, i18n.language);
  return (
    <Stack gap="md">
      <Table withTableBorder aria-label={t('dealer.resources.tableLabel')} data-testid="client-resources">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dealer.resources.type')}</Table.Th>
            <Table.Th ta="right">{t('dealer.resources.allowance')}</Table.Th>
            <Table.Th ta="right">{t('dealer.resources.used')}</Table.Th>
            <Table.Th ta="right">{t('dealer.resources.available')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {detail.resources.map((resource) => (
            <Table.Tr key={resource.resourceType} data-resource={resource.resourceType}>
              <Table.Td>{t(`dealer.resourceTypes.${resource.resourceType}`)}</Table.Td>
              <Table.Td ta="right">{count(resource.allowance)}</Table.Td>
              <Table.Td ta="right">{count(resource.used)}</Table.Td>
              <Table.Td ta="right" c={resource.allowance - resource.used < 0 ? 'red' : undefined}>
                {count(resource.allowance - resource.used)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {ability.can('READ', 'organizations') && (
        <Text size="sm">
          <Anchor component={Link} to="/organizations/consumptions">
            {t('dealer.resources.consumptionLink')}
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
