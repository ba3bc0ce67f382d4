import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentPortal } from '../../app/portal.ts';
import { ORGANIZATIONS_QUERY } from '../../app/shell/OrganizationSwitcher.tsx';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import {
  type AccountInvitation,
  acceptInvitation,
  declineInvitation,
  fetchMyInvitations,
} from './invitations-api.ts';

export const MY_INVITATIONS_QUERY = ['account', 'invitations'] as const;

type Answer = { invitation: AccountInvitation; accept: boolean };

/**
 * Organizations that invited the signed-in user's account (issue 32): accepting makes them a member, and the
 * organization then appears in the list below. Nothing is shown while there are none (or while they load).
 */
export function MyInvitations() {
  const { t, i18n } = useTranslation();
  const { session } = currentPortal();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: MY_INVITATIONS_QUERY,
    queryFn: async ({ signal }) => fetchMyInvitations(await session.accessToken(), signal),
  });

  const answer = useMutation({
    mutationFn: async ({ invitation, accept }: Answer) => {
      const token = await session.accessToken();
      if (accept) await acceptInvitation(token, invitation.id);
      else await declineInvitation(token, invitation.id);
    },
    onSuccess: (_, { invitation, accept }) => {
      const organization = invitation.organization.name;
      notifications.show({
        color: 'green',
        message: t(accept ? 'invitations.accepted' : 'invitations.declined', { organization }),
      });
    },
    onError: (error, { accept }) =>
      notifications.show({
        color: 'red',
        title: t(accept ? 'invitations.acceptFailed' : 'invitations.declineFailed'),
        message: hasStatus(error, 404) ? t('invitations.gone') : describeError(t, error),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: MY_INVITATIONS_QUERY });
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY });
    },
  });

  if (invitations.isError) {
    return (
      <LoadFailed
        title={t('invitations.loadFailed')}
        message={describeError(t, invitations.error)}
        onRetry={() => void invitations.refetch()}
      />
    );
  }
  if (!invitations.data || invitations.data.length === 0) return null;

  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <Card withBorder data-testid="my-invitations" component="section" aria-labelledby="my-invitations-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="my-invitations-title">
          {t('invitations.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('invitations.hint')}
        </Text>
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {invitations.data.map((invitation) => {
            const organization = invitation.organization.name;
            const busy = answer.isPending && answer.variables?.invitation.id === invitation.id;
            return (
              <li
                key={invitation.id}
                data-testid="my-invitation"
                data-organization-id={invitation.organization.id}
              >
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <Stack gap={2} miw={0}>
                    <Text fw={600} truncate>
                      {organization}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {invitation.invitedBy
                        ? t('invitations.invitedOnBy', {
                            date: date.format(new Date(invitation.createdAt)),
                            by: invitation.invitedBy,
                          })
                        : t('invitations.invitedOn', { date: date.format(new Date(invitation.createdAt)) })}
                    </Text>
                  </Stack>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      disabled={answer.isPending}
                      loading={busy && answer.variables?.accept === false}
                      onClick={() => answer.mutate({ invitation, accept: false })}
                      aria-label={t('invitations.declineLabel', { organization })}
                    >
                      {t('invitations.decline')}
                    </Button>
                    <Button
                      size="xs"
                      disabled={answer.isPending}
                      loading={busy && answer.variables?.accept === true}
                      onClick={() => answer.mutate({ invitation, accept: true })}
                      aria-label={t('invitations.acceptLabel', { organization })}
                    >
                      {t('invitations.accept')}
                    </Button>
                  </Group>
                </Group>
              </li>
            );
          })}
        </Stack>
      </Stack>
    </Card>
  );
}
