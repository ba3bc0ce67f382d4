import { Button, Divider, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { deleteOrganization, type OrganizationNode, updateOrganization } from './api.ts';
import { CreateSubOrganizationModal } from './CreateSubOrganizationModal.tsx';
import { ImportTokenModal } from './ImportTokenModal.tsx';
import { MoveOrganizationModal } from './MoveOrganizationModal.tsx';
import { commonFailure, deleteFailure } from './messages.ts';
import { forgetScopedToken, type ScopedAccess } from './scoped-access.ts';
import type { TreeRow } from './tree.ts';
import { useRefreshOrganizations } from './use-refresh.ts';

type Props = { access: ScopedAccess; row: TreeRow<OrganizationNode>; onSelect: (id: string) => void };

type Dialog = 'create' | 'importToken' | 'move' | undefined;

/** Name, IoT and VPN, sub-organizations, moves and deletion of the selected organization. */
export function GeneralPanel({ access, row, onSelect }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshOrganizations();
  const { organization, ability } = access;
  const [dialog, setDialog] = useState<Dialog>();
  const [switching, setSwitching] = useState<'iotEnabled' | 'vpnEnabled' | undefined>();
  const canUpdate = ability.can('UPDATE', 'organizations');
  const canDelete = ability.can('DELETE', 'organizations');
  const canCreate = ability.can('CREATE', 'organizations');

  const toggle = async (flag: 'iotEnabled' | 'vpnEnabled', value: boolean) => {
    setSwitching(flag);
    try {
      await updateOrganization(await access.token(), organization.id, { [flag]: value });
      notifications.show({
        color: 'green',
        message: t(`iamOrganizations.general.${flag}${value ? 'On' : 'Off'}`, { name: organization.name }),
      });
      await refresh();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('iamOrganizations.general.saveFailed'),
        message: commonFailure(t, error),
      });
    } finally {
      setSwitching(undefined);
    }
  };

  const remove = async () => {
    try {
      await deleteOrganization(await access.token(), organization.id);
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.delete.done', { name: organization.name }),
      });
      if (access.entered) {
        await navigate('/organization');
        return;
      }
      forgetScopedToken(organization.id);
      onSelect(organization.parentId ?? '');
      await refresh();
    } catch (error) {
      modals.open({
        title: t('iamOrganizations.delete.failedTitle'),
        children: (
          <Text size="sm" role="alert" data-testid="delete-refused">
            {deleteFailure(t, error, organization.name, row.childCount)}
          </Text>
        ),
      });
    }
  };

  const confirmDelete = () =>
    confirmDanger({
      title: t('iamOrganizations.delete.title'),
      message: (
        <Stack gap="xs">
          <Text size="sm">{t('iamOrganizations.delete.confirm', { name: organization.name })}</Text>
          {access.entered && (
            <Text size="sm" c="dimmed">
              {t('iamOrganizations.delete.enteredHint')}
            </Text>
          )}
        </Stack>
      ),
      confirmLabel: t('iamOrganizations.delete.confirmAction'),
      onConfirm: () => remove(),
    });

  return (
    <Stack gap="lg">
      <RenameForm access={access} disabled={!canUpdate} />

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('iamOrganizations.general.features')}
        </Title>
        <Switch
          label={t('iamOrganizations.general.iotEnabled')}
          description={t('iamOrganizations.general.iotHint')}
          checked={organization.iotEnabled}
          disabled={!canUpdate || switching !== undefined}
          onChange={(event) => void toggle('iotEnabled', event.currentTarget.checked)}
        />
        <Switch
          label={t('iamOrganizations.general.vpnEnabled')}
          description={t('iamOrganizations.general.vpnHint')}
          checked={organization.vpnEnabled}
          disabled={!canUpdate || switching !== undefined}
          onChange={(event) => void toggle('vpnEnabled', event.currentTarget.checked)}
        />
        {access.entered && canUpdate && (
          <Text size="xs" c="dimmed">
            {t('iamOrganizations.general.reenterHint')}
          </Text>
        )}
      </Stack>

      <Divider />
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('iamOrganizations.general.structure')}
        </Title>
        <Group gap="sm">
          {canCreate && (
            <Button onClick={() => setDialog('create')}>{t('iamOrganizations.create.action')}</Button>
          )}
          {canUpdate && (
            <Button variant="default" onClick={() => setDialog('importToken')}>
              {t('iamOrganizations.importToken.action')}
            </Button>
          )}
          {canDelete && (
            <Button variant="default" onClick={() => setDialog('move')}>
              {t('iamOrganizations.move.action')}
            </Button>
          )}
          {canDelete && (
            <Button variant="light" color="red" onClick={confirmDelete}>
              {t('iamOrganizations.delete.action')}
            </Button>
          )}
        </Group>
        {!canCreate && !canUpdate && !canDelete && (
          <Text size="sm" c="dimmed">
            {t('iamOrganizations.general.readOnly')}
          </Text>
        )}
      </Stack>

      <CreateSubOrganizationModal
        opened={dialog === 'create'}
        onClose={() => setDialog(undefined)}
        access={access}
        onCreated={() => void refresh()}
      />
      <ImportTokenModal
        opened={dialog === 'importToken'}
        onClose={() => setDialog(undefined)}
        access={access}
      />
      <MoveOrganizationModal
        opened={dialog === 'move'}
        onClose={() => setDialog(undefined)}
        access={access}
        onMoved={async () => {
          if (!access.entered) forgetScopedToken(organization.id);
          await refresh();
        }}
      />
    </Stack>
  );
}

function RenameForm({ access, disabled }: { access: ScopedAccess; disabled: boolean }) {
  const { t } = useTranslation();
  const refresh = useRefreshOrganizations();
  const form = useForm<{ name: string }>({ defaultValues: { name: access.organization.name } });
  const save = form.handleSubmit(async ({ name }) => {
    try {
      await updateOrganization(await access.token(), access.organization.id, { name: name.trim() });
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.general.renamed', { name: name.trim() }),
      });
      form.reset({ name: name.trim() });
      await refresh();
    } catch (error) {
      form.setError('name', { message: commonFailure(t, error) });
    }
  });
  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('iamOrganizations.general.name')}
          disabled={disabled}
          error={form.formState.errors.name?.message}
          style={{ flex: 1 }}
          maxLength={120}
          {...form.register('name', {
            validate: (value) => (value.trim() ? true : t('iamOrganizations.validation.nameRequired')),
          })}
        />
        <Button
          type="submit"
          disabled={disabled || !form.formState.isDirty}
          loading={form.formState.isSubmitting}
        >
          {t('iamOrganizations.general.rename')}
        </Button>
      </Group>
    </form>
  );
}
