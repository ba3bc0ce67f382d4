import { Badge, Button, Group, Loader, Menu, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { selectorUrl } from '../../auth/organization-entry.ts';
import type { Organization } from '../../auth/organizations.ts';
import { organizationRows } from '../../features/organization-selector/organization-rows.ts';
import { currentPortal } from '../portal.ts';

export const ORGANIZATIONS_QUERY = ['organizations', 'mine'] as const;

/** The organization the user is in, and a quick way into another one. */
export function OrganizationSwitcher({ current }: { current: Organization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { organizations } = currentPortal();
  const list = useQuery({ queryKey: ORGANIZATIONS_QUERY, queryFn: () => organizations.organizations() });

  const switchTo = async (organization: Organization) => {
    try {
      await organizations.enter(organization);
      await navigate('/home');
    } catch {
      await navigate(selectorUrl({ pathname: '/home', search: '' }));
    }
  };

  return (
    <Menu position="bottom-start" width={300} withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-md"
          aria-label={t('organization.switcherLabel', { name: current.name })}
          data-testid="organization-switcher"
        >
          <Text fw={600} size="sm" truncate maw={220}>
            {current.name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('organization.switch')}</Menu.Label>
        {list.isPending && <Loader size="xs" m="sm" aria-label={t('common.loading')} />}
        {list.isError && (
          <Text size="sm" c="red" px="sm">
            {t('organization.loadFailedShort')}
          </Text>
        )}
        {list.data &&
          organizationRows(list.data, '').map(({ organization, depth }) => (
            <Menu.Item
              key={organization.id}
              onClick={() => void switchTo(organization)}
              disabled={organization.id === current.id}
              pl={12 + depth * 16}
            >
              <Group gap={6} wrap="nowrap">
                <Text size="sm" truncate>
                  {organization.name}
                </Text>
                {organization.id === current.id && (
                  <Badge size="xs" variant="light">
                    {t('organization.current')}
                  </Badge>
                )}
              </Group>
            </Menu.Item>
          ))}
        <Menu.Divider />
        <Menu.Item onClick={() => void navigate('/organization?redirectTo=/home')}>
          {t('organization.allOrganizations')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
