import { Badge, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OrganizationNode } from './api.ts';
import classes from './organizations.module.css';
import type { TreeRow } from './tree.ts';

type Props = {
  rows: TreeRow<OrganizationNode>[];
  selectedId: string;
  onSelect: (id: string) => void;
  refreshing: boolean;
};

/** The entered organization and everything below it; each node is a button that selects it. */
export function OrganizationTree({ rows, selectedId, onSelect, refreshing }: Props) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('iamOrganizations.tree.label')}>
      <Group justify="space-between" mb="xs">
        <Text size="sm" fw={600}>
          {t('iamOrganizations.tree.heading')}
        </Text>
        {refreshing && <Loader size="xs" aria-label={t('common.loading')} />}
      </Group>
      <ul className={classes.tree} data-testid="organization-tree">
        {rows.map(({ organization, depth, childCount }) => (
          <li key={organization.id}>
            <UnstyledButton
              className={classes.node}
              style={{ paddingLeft: 8 + depth * 20 }}
              onClick={() => onSelect(organization.id)}
              aria-current={organization.id === selectedId ? 'true' : undefined}
              data-testid="organization-node"
              data-organization-id={organization.id}
            >
              <Text size="sm" fw={organization.id === selectedId ? 700 : 500} truncate>
                {organization.name}
              </Text>
              <Group gap={4} wrap="nowrap">
                {childCount > 0 && (
                  <Text size="xs" c="dimmed">
                    {t('iamOrganizations.tree.children', { count: childCount })}
                  </Text>
                )}
                {organization.iotEnabled && (
                  <Badge size="xs" variant="light" color="teal" data-testid="badge-iot">
                    {t('iamOrganizations.iot')}
                  </Badge>
                )}
                {organization.vpnEnabled && (
                  <Badge size="xs" variant="light" color="indigo" data-testid="badge-vpn">
                    {t('iamOrganizations.vpn')}
                  </Badge>
                )}
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </ul>
      {rows.length === 1 && (
        <Text size="xs" c="dimmed" mt="xs" px={8}>
          {t('iamOrganizations.tree.empty')}
        </Text>
      )}
    </nav>
  );
}
