import { Drawer, Loader, Group as Row, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchGroup, fetchRoleOptions } from './api.ts';
import { GroupMembers } from './GroupMembers.tsx';
import { GroupRoles } from './GroupRoles.tsx';

type Props = { groupId: string | null; onClose: () => void };

/** One group: its members (each with a role) and the roles it gives them. */
export function GroupDrawer({ groupId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const group = useQuery({
    queryKey: ['iam-groups', organization.id, 'group', groupId],
    queryFn: async ({ signal }) => fetchGroup(await token(), organization.id, groupId ?? '', signal),
    enabled: groupId !== null,
  });
  const roleOptions = useQuery({
    queryKey: ['iam-groups', organization.id, 'role-options'],
    queryFn: async ({ signal }) => fetchRoleOptions(await token(), organization.id, signal),
    enabled: groupId !== null && ability.can('READ', 'roles'),
    staleTime: 60_000,
  });

  return (
    <Drawer
      opened={groupId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={group.data?.name ?? t('iamGroups.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {group.isPending && groupId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {group.isError && (
        <LoadFailed
          title={t('iamGroups.drawer.loadFailed')}
          message={hasStatus(group.error, 404) ? t('iamGroups.errors.gone') : describeError(t, group.error)}
          onRetry={() => void group.refetch()}
        />
      )}
      {group.data && (
        <Stack gap="md" data-testid="group-drawer">
          {group.data.description && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {group.data.description}
            </Text>
          )}
          <Tabs defaultValue="members" keepMounted={false}>
            <Tabs.List aria-label={t('iamGroups.drawer.sections')}>
              <Tabs.Tab value="members">
                {t('iamGroups.drawer.members', { count: group.data.memberCount })}
              </Tabs.Tab>
              <Tabs.Tab value="roles">
                {t('iamGroups.drawer.roles', { count: group.data.roles.length })}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="members" pt="md">
              <GroupMembers group={group.data} roleOptions={roleOptions.data} />
            </Tabs.Panel>
            <Tabs.Panel value="roles" pt="md">
              <GroupRoles
                group={group.data}
                roleOptions={roleOptions.data}
                roleOptionsFailed={roleOptions.isError}
              />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </Drawer>
  );
}
