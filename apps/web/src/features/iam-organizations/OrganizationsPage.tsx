import { Card, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { OrganizationTabs } from '../organization-usage/OrganizationTabs.tsx';
import { fetchDescendants, fetchOrganization } from './api.ts';
import { OrganizationDetail } from './OrganizationDetail.tsx';
import { OrganizationTree } from './OrganizationTree.tsx';
import { treeRows } from './tree.ts';
import { treeQueryKey } from './use-refresh.ts';

/**
 * Spec 2 /organizations: the entered organization and its sub-organizations as a tree, and the selected one's
 * details (general settings and moves, security policy groups, service clients).
 */
export default function OrganizationsPage() {
  const { t } = useTranslation();
  const { organization: entered, token } = useOrganizationApi();
  const [selectedId, setSelectedId] = useState(entered.id);
  const tree = useQuery({
    queryKey: treeQueryKey(entered.id),
    queryFn: async ({ signal }) => {
      const bearer = await token();
      const [root, descendants] = await Promise.all([
        fetchOrganization(bearer, entered.id, signal),
        fetchDescendants(bearer, entered.id, signal),
      ]);
      return { root, descendants };
    },
  });
  const rows = tree.data ? treeRows(tree.data.root, tree.data.descendants) : [];
  const selected = rows.find((row) => row.organization.id === selectedId) ?? rows[0];

  return (
    <Stack gap="md" data-testid="organizations-page">
      <OrganizationTabs />
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('iamOrganizations.title')}
        </Title>
      </Group>
      {tree.isPending && (
        <Group gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('iamOrganizations.tree.loading')}</Text>
        </Group>
      )}
      {tree.isError && (
        <LoadFailed
          title={t('iamOrganizations.tree.loadFailed')}
          message={describeError(t, tree.error)}
          onRetry={() => void tree.refetch()}
        />
      )}
      {tree.data && selected && (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder padding="sm">
              <OrganizationTree
                rows={rows}
                selectedId={selected.organization.id}
                onSelect={setSelectedId}
                refreshing={tree.isFetching}
              />
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <OrganizationDetail key={selected.organization.id} row={selected} onSelect={setSelectedId} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
