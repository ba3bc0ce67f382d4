import { Button, Loader, MultiSelect, Group as Row, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { changeUserPolicies, fetchPolicyOptions, fetchUserPolicies, type User } from './api.ts';
import { userFailure } from './messages.ts';

/** Security policy groups assigned to the user (spec 7 "User security policies"). */
export function UserSecurityPolicies({ user }: { user: User }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canUpdate = ability.can('UPDATE', 'users');
  // The catalogue of policy groups is an organization setting: listing it needs READ on organizations.
  // A policy restricts the account's one sign-in to every organization: only an account this organization manages
  // gets new ones (the server refuses the others with 403); removing this organization's own stays possible.
  const canPick = canUpdate && ability.can('READ', 'organizations') && user.accountManaged;
  const [picked, setPicked] = useState<string[]>([]);
  const queryKey = ['iam-users', organization.id, 'policies', user.id];

  const assigned = useQuery({
    queryKey,
    queryFn: async ({ signal }) => fetchUserPolicies(await token(), organization.id, user.id, signal),
  });
  const options = useQuery({
    queryKey: ['iam-users', organization.id, 'policy-options'],
    queryFn: async ({ signal }) => fetchPolicyOptions(await token(), organization.id, signal),
    enabled: canPick,
    staleTime: 60_000,
  });

  const change = useMutation({
    mutationFn: async ({ ids, kind }: { ids: string[]; kind: 'assign' | 'unassign' }) =>
      changeUserPolicies(await token(), organization.id, user.id, ids, kind),
    onSuccess: (policies, { kind }) => {
      queryClient.setQueryData(queryKey, policies);
      setPicked([]);
      notifications.show({
        color: 'green',
        message: t(kind === 'assign' ? 'iamUsers.policies.assigned' : 'iamUsers.policies.removed', {
          email: user.email,
        }),
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('iamUsers.saveFailed'),
        message: userFailure(t, 'policies', error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });

  if (assigned.isPending) {
    return (
      <Row gap="sm" aria-busy="true">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Row>
    );
  }
  if (assigned.isError) {
    return (
      <LoadFailed
        title={t('iamUsers.policies.loadFailed')}
        message={describeError(t, assigned.error)}
        onRetry={() => void assigned.refetch()}
      />
    );
  }

  const assignedIds = new Set(assigned.data.map((policy) => policy.id));
  const available = (options.data ?? [])
    .filter((policy) => !assignedIds.has(policy.id))
    .map((policy) => ({ value: policy.id, label: policy.name }));

  return (
    <Stack gap="md" data-testid="user-policies">
      <Text size="sm" c="dimmed">
        {t('iamUsers.policies.hint')}
      </Text>
      {!user.accountManaged && canUpdate && (
        <Text size="sm" data-testid="policies-not-managed">
          {t('iamUsers.policies.notManaged')}
        </Text>
      )}
      {assigned.data.length === 0 ? (
        <Text size="sm" data-testid="user-policies-empty">
          {t('iamUsers.policies.empty')}
        </Text>
      ) : (
        <Table aria-label={t('iamUsers.policies.tableLabel', { email: user.email })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('iamUsers.policies.name')}</Table.Th>
              <Table.Th>{t('iamUsers.policies.description')}</Table.Th>
              {canUpdate && <Table.Th aria-label={t('iamUsers.columns.actions')} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assigned.data.map((policy) => (
              <Table.Tr key={policy.id}>
                <Table.Td>{policy.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {policy.description}
                  </Text>
                </Table.Td>
                {canUpdate && (
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      disabled={change.isPending}
                      onClick={() => change.mutate({ ids: [policy.id], kind: 'unassign' })}
                      aria-label={t('iamUsers.policies.remove', { name: policy.name })}
                    >
                      {t('iamUsers.policies.removeShort')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canPick && (
        <Row align="flex-end" wrap="nowrap">
          <MultiSelect
            style={{ flex: 1 }}
            label={t('iamUsers.policies.add')}
            placeholder={options.isPending ? t('common.loading') : t('iamUsers.policies.pick')}
            data={available}
            value={picked}
            onChange={setPicked}
            searchable
            nothingFoundMessage={t('iamUsers.policies.noneLeft')}
            error={options.isError ? t('iamUsers.invite.optionsFailed') : undefined}
          />
          <Button
            disabled={picked.length === 0}
            loading={change.isPending}
            onClick={() => change.mutate({ ids: picked, kind: 'assign' })}
          >
            {t('iamUsers.policies.assign')}
          </Button>
        </Row>
      )}
    </Stack>
  );
}
