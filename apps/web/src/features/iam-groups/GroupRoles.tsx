import {
  Alert,
  Badge,
  Button,
  MultiSelect,
  Paper,
  Group as Row,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { addGroupRoles, type Group, type RoleOption, removeGroupRoles } from './api.ts';
import { useRefreshGroups } from './GroupMembers.tsx';
import { groupFailure } from './messages.ts';

type Props = { group: Group; roleOptions: RoleOption[] | undefined; roleOptionsFailed: boolean };

/** The roles a group gives every member; added and removed here. */
export function GroupRoles({ group, roleOptions, roleOptionsFailed }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const refresh = useRefreshGroups();
  const canUpdate = ability.can('UPDATE', 'usergroups');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ roleIds: string[] }>({ defaultValues: { roleIds: [] } });
  const assigned = new Set(group.roles.map((role) => role.id));
  const available = (roleOptions ?? [])
    .filter((role) => !assigned.has(role.id))
    .map((role) => ({ value: role.id, label: role.name }));

  const add = form.handleSubmit(async ({ roleIds }) => {
    if (roleIds.length === 0) return;
    setFailure(null);
    try {
      await addGroupRoles(await token(), organization.id, group.id, roleIds);
      notifications.show({ color: 'green', message: t('iamGroups.roles.added', { count: roleIds.length }) });
      form.reset({ roleIds: [] });
    } catch (error) {
      setFailure(groupFailure(t, 'roles', error));
    } finally {
      await refresh();
    }
  });

  const remove = (role: { id: string; name: string }) =>
    confirmDanger({
      title: t('iamGroups.roles.removeTitle'),
      message: t('iamGroups.roles.removeConfirm', { role: role.name, group: group.name }),
      confirmLabel: t('iamGroups.roles.remove'),
      onConfirm: async () => {
        try {
          await removeGroupRoles(await token(), organization.id, group.id, [role.id]);
        } catch (error) {
          notifications.show({
            color: 'red',
            title: t('iamGroups.roles.failed'),
            message: groupFailure(t, 'roles', error),
          });
        } finally {
          await refresh();
        }
      },
    });

  return (
    <Stack gap="md">
      {canUpdate && (
        <Paper withBorder p="sm">
          <form onSubmit={add} noValidate data-testid="add-roles">
            <Stack gap="xs">
              <Title order={3} size="h6">
                {t('iamGroups.roles.addTitle')}
              </Title>
              {roleOptionsFailed || !ability.can('READ', 'roles') ? (
                <Alert color="gray" variant="light">
                  {t('iamGroups.roles.noOptions')}
                </Alert>
              ) : (
                <Row align="flex-end" gap="xs">
                  <Controller
                    control={form.control}
                    name="roleIds"
                    rules={{ validate: (ids) => ids.length > 0 || t('iamGroups.roles.pick') }}
                    render={({ field, fieldState }) => (
                      <MultiSelect
                        label={t('iamGroups.roles.toAdd')}
                        placeholder={roleOptions ? t('iamGroups.roles.placeholder') : t('common.loading')}
                        data={available}
                        value={field.value}
                        onChange={field.onChange}
                        searchable
                        clearable
                        nothingFoundMessage={t('iamGroups.roles.nothingLeft')}
                        error={fieldState.error?.message}
                        style={{ flex: 1 }}
                      />
                    )}
                  />
                  <Button type="submit" loading={form.formState.isSubmitting}>
                    {t('iamGroups.roles.add')}
                  </Button>
                </Row>
              )}
              {failure && (
                <Text size="sm" c="red" role="alert">
                  {failure}
                </Text>
              )}
            </Stack>
          </form>
        </Paper>
      )}
      {group.roles.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="group-roles-empty">
          {t('iamGroups.roles.empty')}
        </Text>
      ) : (
        <Table withTableBorder aria-label={t('iamGroups.roles.tableLabel', { group: group.name })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('iamGroups.roles.role')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('iamGroups.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody data-testid="group-roles">
            {group.roles.map((role) => (
              <Table.Tr key={role.id}>
                <Table.Td>
                  <Badge variant="light" tt="none">
                    {role.name}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">
                  {canUpdate && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => remove(role)}
                      aria-label={t('iamGroups.roles.removeLabel', { role: role.name })}
                    >
                      {t('iamGroups.roles.remove')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
