import { Anchor, Center, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchInstalledApps, storeKeys } from '../store/api.ts';
import { fetchShortcuts, VPN_SHORTCUTS_KEY } from '../vpn-applications/api.ts';
import { domainOf } from '../vpn-endpoints/api.ts';
import { OpenButton } from './OpenButton.tsx';

/**
 * The applications the user can open directly: the organization's installed store apps (each opens in its
 * container) and the user's remote-access shortcuts (each opens its gateway, where the application is started).
 */
export function ApplicationsList({ storeApps, vpnShortcuts }: { storeApps: boolean; vpnShortcuts: boolean }) {
  return (
    <Stack gap="lg">
      {storeApps && <StoreApps />}
      {vpnShortcuts && <Shortcuts />}
    </Stack>
  );
}

function Section({
  title,
  query,
  count,
  empty,
  children,
}: {
  title: string;
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  count: number;
  empty: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Center p="md">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    );
  } else if (query.error) {
    body = (
      <LoadFailed
        title={t('directaccessLists.loadFailed')}
        message={describeError(t, query.error)}
        onRetry={() => void query.refetch()}
      />
    );
  } else if (count === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="table-empty">
        {empty}
      </Text>
    );
  } else body = children;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {body}
    </Stack>
  );
}

function StoreApps() {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const installed = useQuery({
    queryKey: storeKeys.installed(organization.id),
    queryFn: async ({ signal }) => fetchInstalledApps(await token(), organization.id, signal),
  });
  const items = installed.data?.items ?? [];
  return (
    <Section
      title={t('directaccessLists.storeApps')}
      query={installed}
      count={items.length}
      empty={t('directaccessLists.empty.apps')}
    >
      <Table aria-label={t('directaccessLists.tableLabel.apps')} highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('directaccessLists.columns.name')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('directaccessLists.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((app) => {
            const to = `/store/container/${encodeURIComponent(app.id)}`;
            return (
              <Table.Tr key={app.id} data-row-id={app.id}>
                <Table.Td>
                  <Anchor component={Link} to={to} fw={500}>
                    {app.name}
                  </Anchor>
                </Table.Td>
                <Table.Td align="right">
                  <OpenButton to={to} name={app.name} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

function Shortcuts() {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const shortcuts = useQuery({
    queryKey: [VPN_SHORTCUTS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchShortcuts(await token(), domainOf(organization), signal),
  });
  const items = shortcuts.data?.items ?? [];
  return (
    <Section
      title={t('directaccessLists.shortcuts')}
      query={shortcuts}
      count={items.length}
      empty={t('directaccessLists.empty.shortcuts')}
    >
      <Table aria-label={t('directaccessLists.tableLabel.shortcuts')} highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('directaccessLists.columns.name')}</Table.Th>
            <Table.Th>{t('vpnEndpoints.fields.gateway')}</Table.Th>
            <Table.Th>{t('vpnApplications.shortcuts.fields.endpoint')}</Table.Th>
            <Table.Th>{t('vpnApplications.shortcuts.fields.application')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('directaccessLists.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((shortcut) => (
            <Table.Tr key={shortcut.id} data-row-id={shortcut.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {shortcut.label}
                </Text>
              </Table.Td>
              <Table.Td>{shortcut.gateway}</Table.Td>
              <Table.Td>{shortcut.endpoint}</Table.Td>
              <Table.Td>{shortcut.action}</Table.Td>
              <Table.Td align="right">
                <OpenButton
                  to={`/vpn?gateway=${encodeURIComponent(shortcut.gateway)}`}
                  name={shortcut.label}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}
