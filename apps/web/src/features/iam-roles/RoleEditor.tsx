import {
  Alert,
  Button,
  Drawer,
  Group,
  Loader,
  MultiSelect,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import {
  type ApplicationPermission,
  createRole,
  fetchApplicationPermissions,
  fetchRole,
  ROLE_KINDS,
  type Role,
  type RoleKind,
  roleNameExists,
  updateRole,
} from './api.ts';
import { saveFailure, usageText } from './messages.ts';
import { PermissionGrid } from './PermissionGrid.tsx';
import { DeviceAccessFields, ModelPathTable } from './RoleSections.tsx';
import { emptyRoleForm, formToRole, type RoleFormValues, roleToForm } from './role-form.ts';
import { useDeleteRole } from './use-delete-role.tsx';

type Props = {
  /** A role id, 'new' for a new role, or null when closed. */
  roleId: string | null;
  /** The kind a new role starts with (the list it was opened from). */
  kind: RoleKind;
  onClose: () => void;
};

/** The role editor in a drawer: loads the role (or starts empty), then the form. */
export function RoleEditor({ roleId, kind, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const isNew = roleId === 'new';
  const role = useQuery({
    queryKey: ['iam-roles', organization.id, 'role', roleId],
    queryFn: async ({ signal }) => fetchRole(await token(), organization.id, roleId ?? '', signal),
    enabled: roleId !== null && !isNew,
    staleTime: 0,
  });
  const catalogue = useQuery({
    queryKey: ['iam-roles', 'catalogue'],
    queryFn: async ({ signal }) => fetchApplicationPermissions(await token(), signal),
    enabled: roleId !== null,
    staleTime: 5 * 60_000,
  });

  return (
    <Drawer
      opened={roleId !== null}
      onClose={onClose}
      position="right"
      size="min(100%, 1240px)"
      title={isNew ? t('iamRoles.editor.newTitle') : t('iamRoles.editor.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {roleId !== null && !isNew && role.isPending && (
        <Group gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Group>
      )}
      {!isNew && role.isError && (
        <LoadFailed
          title={t('iamRoles.editor.loadFailed')}
          message={hasStatus(role.error, 404) ? t('iamRoles.errors.gone') : describeError(t, role.error)}
          onRetry={() => void role.refetch()}
        />
      )}
      {(isNew || role.data) && (
        <RoleForm
          key={isNew ? `new-${kind}` : role.data?.id}
          role={isNew ? null : (role.data ?? null)}
          kind={kind}
          catalogue={catalogue.data}
          catalogueFailed={catalogue.isError}
          onDone={onClose}
        />
      )}
    </Drawer>
  );
}

type FormProps = {
  role: Role | null;
  kind: RoleKind;
  catalogue: ApplicationPermission[] | undefined;
  catalogueFailed: boolean;
  onDone: () => void;
};

function RoleForm({ role, kind, catalogue, catalogueFailed, onDone }: FormProps) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const confirmDelete = useDeleteRole(onDone);
  const form = useForm<RoleFormValues>({
    defaultValues: role ? roleToForm(role) : emptyRoleForm(kind),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const readOnly = role ? !ability.can('UPDATE', 'roles') : !ability.can('CREATE', 'roles');
  const currentKind = form.watch('kind');
  const extraCount = form.getValues('extraPermissions').length;

  const save = useMutation({
    mutationFn: async (values: RoleFormValues) => {
      const input = formToRole(values);
      const accessToken = await token();
      return role
        ? updateRole(accessToken, organization.id, role.id, input)
        : createRole(accessToken, organization.id, input);
    },
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(role ? 'iamRoles.editor.saved' : 'iamRoles.editor.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: ['iam-roles', organization.id] });
      onDone();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) form.setError('name', { message: t('iamRoles.editor.nameTaken') });
      setFailure(saveFailure(t, error));
    },
  });

  const nameIsFree = async (name: string) => {
    const trimmed = name.trim();
    if (role && trimmed === role.name) return true;
    try {
      return (
        !(await roleNameExists(await token(), organization.id, trimmed)) || t('iamRoles.editor.nameTaken')
      );
    } catch {
      // The server checks again when saving; a failed lookup must not block the form.
      return true;
    }
  };

  const catalogueOptions = (catalogue ?? []).map((entry) => ({
    value: entry.id,
    label: `${entry.name} (${entry.application})`,
  }));

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
      data-testid="role-editor"
    >
      <Stack gap="md">
        {role && (
          <Text size="sm" c="dimmed" data-testid="role-usage">
            {t('iamRoles.editor.usage', { usage: usageText(t, role.usage) })}
          </Text>
        )}
        {readOnly && (
          <Alert color="gray" variant="light">
            {t('iamRoles.editor.readOnly')}
          </Alert>
        )}
        <TextInput
          label={t('iamRoles.editor.name')}
          required
          readOnly={readOnly}
          maxLength={120}
          error={form.formState.errors.name?.message}
          {...form.register('name', {
            validate: async (name) => {
              if (name.trim() === '') return t('iamRoles.editor.nameRequired');
              return nameIsFree(name);
            },
          })}
        />
        <Textarea
          label={t('iamRoles.editor.description')}
          readOnly={readOnly}
          autosize
          minRows={2}
          maxLength={1000}
          {...form.register('description')}
        />
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <Radio.Group
              label={t('iamRoles.editor.kind')}
              value={field.value}
              onChange={(value) => field.onChange(value as RoleKind)}
            >
              <Group gap="lg" mt={4}>
                {ROLE_KINDS.map((option) => (
                  <Radio
                    key={option}
                    value={option}
                    label={t(`iamRoles.kinds.${option}`)}
                    disabled={readOnly}
                  />
                ))}
              </Group>
            </Radio.Group>
          )}
        />

        {currentKind === 'general' && (
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('iamRoles.grid.title')}
            </Title>
            <PermissionGrid form={form} readOnly={readOnly} />
            {extraCount > 0 && (
              <Text size="xs" c="dimmed">
                {t('iamRoles.grid.extra', { count: extraCount })}
              </Text>
            )}
          </Stack>
        )}
        {currentKind === 'data' && (
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('iamRoles.modelPaths.title')}
            </Title>
            <ModelPathTable form={form} readOnly={readOnly} />
          </Stack>
        )}
        {currentKind === 'device' && (
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('iamRoles.device.title')}
            </Title>
            <DeviceAccessFields form={form} readOnly={readOnly} />
          </Stack>
        )}

        <Controller
          control={form.control}
          name="applicationPermissionIds"
          render={({ field }) => (
            <MultiSelect
              label={t('iamRoles.editor.applicationPermissions')}
              description={catalogueFailed ? t('iamRoles.editor.catalogueFailed') : undefined}
              placeholder={
                catalogue ? t('iamRoles.editor.applicationPermissionsPlaceholder') : t('common.loading')
              }
              data={catalogueOptions}
              value={field.value}
              onChange={field.onChange}
              searchable
              clearable={!readOnly}
              readOnly={readOnly}
              nothingFoundMessage={t('iamRoles.editor.nothingFound')}
              data-testid="application-permissions"
            />
          )}
        />

        {failure && (
          <Alert color="red" title={t('iamRoles.editor.saveFailed')} data-testid="role-save-failed">
            {failure}
          </Alert>
        )}
        <Group justify="space-between">
          <Group gap="xs">
            {!readOnly && (
              <Button type="submit" loading={save.isPending || form.formState.isSubmitting}>
                {role ? t('iamRoles.editor.save') : t('iamRoles.editor.create')}
              </Button>
            )}
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
          </Group>
          {role && ability.can('DELETE', 'roles') && (
            <Button variant="subtle" color="red" onClick={() => confirmDelete(role)}>
              {t('iamRoles.delete.action')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
