import { Badge, Button, Card, Loader, Group as Row, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchInvitations, type Invitation, revokeInvitation } from './api.ts';

/**
 * Existing accounts the organization invited (issue 32): not members until their owners accept, so they are not in
 * the users list; shown here with what they will get, and revocable. Nothing is shown while there are none.
 */
export function PendingInvitations() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canRevoke = ability.can('DELETE', 'users');
  const invitations = useQuery({
    queryKey: ['iam-users', organization.id, 'invitations'],
    queryFn: async ({ signal }) => fetchInvitations(await token(), organization.id, signal),
  });

  const revoke = async (invitation: Invitation) => {
    try {
      await revokeInvitation(await token(), organization.id, invitation.id);
      notifications.show({
        color: 'green',
        message: t('iamUsers.invitations.revoked', { email: invitation.email }),
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('iamUsers.invitations.revokeFailed'),
        message: hasStatus(error, 404) ? t('iamUsers.invitations.gone') : describeError(t, error),
      });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['iam-users', organization.id] });
    }
  };
  const confirmRevoke = (invitation: Invitation) =>
    confirmDanger({
      title: t('iamUsers.invitations.revokeTitle'),
      message: t('iamUsers.invitations.revokeConfirm', {
        email: invitation.email,
        organization: organization.name,
      }),
      confirmLabel: t('iamUsers.invitations.revokeAction'),
      onConfirm: () => revoke(invitation),
    });

  if (invitations.isPending) {
    return (
      <Row gap="sm" aria-busy="true">
        <Loader size="sm" />
        <Text c="dimmed">{t('iamUsers.invitations.loading')}</Text>
      </Row>
    );
  }
  if (invitations.isError) {
    return (
      <LoadFailed
        title={t('iamUsers.invitations.loadFailed')}
        message={describeError(t, invitations.error)}
        onRetry={() => void invitations.refetch()}
      />
    );
  }
  if (invitations.data.length === 0) return null;

  const names = (rows: { name: string }[]) => rows.map((row) => row.name).join(', ') || t('iamUsers.none');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <Card withBorder data-testid="pending-invitations">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('iamUsers.invitations.title', { count: invitations.data.length })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('iamUsers.invitations.hint')}
        </Text>
        <Table aria-label={t('iamUsers.invitations.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('iamUsers.columns.email')}</Table.Th>
              <Table.Th>{t('iamUsers.columns.roles')}</Table.Th>
              <Table.Th>{t('iamUsers.columns.groups')}</Table.Th>
              <Table.Th>{t('iamUsers.invitations.invited')}</Table.Th>
              <Table.Th>{t('iamUsers.columns.status')}</Table.Th>
              {canRevoke && <Table.Th aria-label={t('iamUsers.columns.actions')} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.data.map((invitation) => (
              <Table.Tr key={invitation.id} data-testid="pending-invitation">
                <Table.Td>{invitation.email}</Table.Td>
                <Table.Td>{names(invitation.roles)}</Table.Td>
                <Table.Td>{names(invitation.groups)}</Table.Td>
                <Table.Td>
                  {invitation.invitedBy
                    ? t('iamUsers.invitations.invitedOnBy', {
                        date: date.format(new Date(invitation.createdAt)),
                        by: invitation.invitedBy,
                      })
                    : date.format(new Date(invitation.createdAt))}
                </Table.Td>
                <Table.Td>
                  <Badge color="blue" variant="light" tt="none">
                    {t('iamUsers.status.invitationPending')}
                  </Badge>
                </Table.Td>
                {canRevoke && (
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => confirmRevoke(invitation)}
                      aria-label={t('iamUsers.invitations.revoke', { email: invitation.email })}
                    >
                      {t('iamUsers.invitations.revokeShort')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
