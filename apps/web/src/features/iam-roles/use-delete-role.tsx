import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { deleteRole, type Role } from './api.ts';
import { deleteFailure, isInUse, usageText } from './messages.ts';

/**
 * Deleting a role: a role in use cannot go (the server refuses with 409), so it says why instead of asking; an unused
 * role is deleted after a confirmation.
 */
export function useDeleteRole(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();

  const remove = async (role: Pick<Role, 'id' | 'name' | 'usage'>) => {
    try {
      await deleteRole(await token(), organization.id, role.id);
      notifications.show({ color: 'green', message: t('iamRoles.delete.done', { name: role.name }) });
      onDeleted?.();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('iamRoles.delete.failed'),
        message: deleteFailure(t, error, role.name, role.usage),
      });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['iam-roles', organization.id] });
      await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
    }
  };

  return (role: Pick<Role, 'id' | 'name' | 'usage'>) => {
    if (isInUse(role.usage)) {
      modals.open({
        title: t('iamRoles.delete.cannotTitle'),
        children: (
          <Text size="sm" data-testid="role-in-use">
            {t('iamRoles.delete.inUse', { name: role.name, usage: usageText(t, role.usage) })}
          </Text>
        ),
      });
      return;
    }
    confirmDanger({
      title: t('iamRoles.delete.title'),
      message: t('iamRoles.delete.confirm', { name: role.name }),
      confirmLabel: t('iamRoles.delete.action'),
      onConfirm: () => remove(role),
    });
  };
}
