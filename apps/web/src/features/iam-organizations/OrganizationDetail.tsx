import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { selectorUrl } from '../../auth/organization-entry.ts';
import type { OrganizationNode } from './api.ts';
import { ClientsPanel } from './ClientsPanel.tsx';
import { GeneralPanel } from './GeneralPanel.tsx';
import { LimitsPanel } from './LimitsPanel.tsx';
import { SecurityPoliciesPanel } from './SecurityPoliciesPanel.tsx';
import { useScopedAccess } from './scoped-access.ts';
import type { TreeRow } from './tree.ts';

type Props = { row: TreeRow<OrganizationNode>; onSelect: (id: string) => void };

/** The selected organization: its general settings and moves, security policy groups and service clients. */
export function OrganizationDetail({ row, onSelect }: Props) {
  const { t } = useTranslation();
  const { organization } = row;
  const state = useScopedAccess(organization);

  return (
    <Card
      withBorder
      padding="md"
      data-testid="organization-detail"
      aria-labelledby="organization-detail-title"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Title order={2} size="h3" id="organization-detail-title" data-testid="organization-detail-name">
              {organization.name}
            </Title>
            <Text size="xs" c="dimmed">
              {row.parentName
                ? t('iamOrganizations.detail.subOrganizationOf', {
                    parent: row.parentName,
                    id: organization.resourceId,
                  })
                : organization.resourceId}
            </Text>
          </Stack>
          <Group gap={6} wrap="nowrap">
            {organization.iotEnabled && (
              <Badge variant="light" color="teal">
                {t('iamOrganizations.iot')}
              </Badge>
            )}
            {organization.vpnEnabled && (
              <Badge variant="light" color="indigo">
                {t('iamOrganizations.vpn')}
              </Badge>
            )}
          </Group>
        </Group>

        {state.status === 'pending' && (
          <Group gap="sm" aria-busy="true">
            <Loader size="sm" />
            <Text c="dimmed">{t('iamOrganizations.detail.loadingAccess')}</Text>
          </Group>
        )}
        {state.status === 'denied' && (
          <Alert color="yellow" title={t('iamOrganizations.detail.noAccessTitle')} data-testid="no-access">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('iamOrganizations.detail.noAccess', { name: organization.name })}</Text>
              <Anchor
                component={Link}
                to={selectorUrl({ pathname: '/organizations', search: '' }, organization.id)}
                size="sm"
              >
                {t('iamOrganizations.detail.enter', { name: organization.name })}
              </Anchor>
            </Stack>
          </Alert>
        )}
        {state.status === 'ready' && (
          <Tabs defaultValue="general" keepMounted={false}>
            <Tabs.List aria-label={t('iamOrganizations.detail.sections')}>
              <Tabs.Tab value="general">{t('iamOrganizations.tabs.general')}</Tabs.Tab>
              {state.access.ability.can('READ', 'organizations') && (
                <>
                  <Tabs.Tab value="policies">{t('iamOrganizations.tabs.policies')}</Tabs.Tab>
                  <Tabs.Tab value="clients">{t('iamOrganizations.tabs.clients')}</Tabs.Tab>
                  <Tabs.Tab value="limits">{t('iamOrganizations.tabs.limits')}</Tabs.Tab>
                </>
              )}
            </Tabs.List>
            <Tabs.Panel value="general" pt="md">
              <GeneralPanel access={state.access} row={row} onSelect={onSelect} />
            </Tabs.Panel>
            <Tabs.Panel value="policies" pt="md">
              <SecurityPoliciesPanel access={state.access} />
            </Tabs.Panel>
            <Tabs.Panel value="clients" pt="md">
              <ClientsPanel access={state.access} />
            </Tabs.Panel>
            <Tabs.Panel value="limits" pt="md">
              <LimitsPanel access={state.access} />
            </Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Card>
  );
}
