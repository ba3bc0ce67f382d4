import { Drawer, Loader, Group as Row, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentPortal } from '../../app/portal.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchUser } from './api.ts';
import { displayName } from './messages.ts';
import { UserApiKeys } from './UserApiKeys.tsx';
import { UserDetailsForm } from './UserDetailsForm.tsx';
import { UserSecurityPolicies } from './UserSecurityPolicies.tsx';

type Props = { userId: string | null; onClose: () => void };

/** One member: account details, security policy groups and personal API keys. */
export function UserDrawer({ userId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const user = useQuery({
    queryKey: ['iam-users', organization.id, 'user', userId],
    queryFn: async ({ signal }) => fetchUser(await token(), organization.id, userId ?? '', signal),
    enabled: userId !== null,
  });
  const self = user.data?.email === currentPortal().session.user.username.toLowerCase();

  return (
    <Drawer
      opened={userId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={user.data ? displayName(user.data) : t('iamUsers.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {user.isPending && userId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {user.isError && (
        <LoadFailed
          title={t('iamUsers.drawer.loadFailed')}
          message={hasStatus(user.error, 404) ? t('iamUsers.errors.gone') : describeError(t, user.error)}
          onRetry={() => void user.refetch()}
        />
      )}
      {user.data && (
        <Tabs defaultValue="details" keepMounted={false} data-testid="user-drawer">
          <Tabs.List aria-label={t('iamUsers.drawer.sections')}>
            <Tabs.Tab value="details">{t('iamUsers.drawer.details')}</Tabs.Tab>
            <Tabs.Tab value="policies">{t('iamUsers.drawer.policies')}</Tabs.Tab>
            <Tabs.Tab value="apiKeys">{t('iamUsers.drawer.apiKeys')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="details" pt="md">
            <UserDetailsForm key={user.data.id} user={user.data} self={self} />
          </Tabs.Panel>
          <Tabs.Panel value="policies" pt="md">
            <UserSecurityPolicies user={user.data} />
          </Tabs.Panel>
          <Tabs.Panel value="apiKeys" pt="md">
            <UserApiKeys user={user.data} self={self} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Drawer>
  );
}
