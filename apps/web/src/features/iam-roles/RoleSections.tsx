import {
  Button,
  Checkbox,
  Group,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, type UseFormReturn, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { fetchKnownModelPaths } from './api.ts';
import { firstInvalidId, modelPathError, type RoleFormValues } from './role-form.ts';

type Props = { form: UseFormReturn<RoleFormValues>; readOnly: boolean };

/** The organization's known model paths (GET modelPaths), only while the rows can be edited. */
function useKnownModelPaths(enabled: boolean) {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: ['iam-roles', organization.id, 'model-paths'],
    queryFn: async ({ signal }) => fetchKnownModelPaths(await token(), organization.id, signal),
    enabled,
    staleTime: 60_000,
  });
}

/** A data role's model paths: one row per path with read and write rights; rows are added and removed. */
export function ModelPathTable({ form, readOnly }: Props) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'modelPathPermissions' });
  const errors = form.formState.errors.modelPathPermissions;
  const suggestionsId = useId();
  // Suggestions only: a path no model has yet can still be typed, so a failed load just offers none.
  const known = useKnownModelPaths(!readOnly);
  const suggestions = readOnly ? undefined : known.data;
  return (
    <Stack gap="xs">
      {suggestions && (
        <datalist id={suggestionsId} data-testid="model-path-suggestions">
          {suggestions.map((path) => (
            <option key={path} value={path} />
          ))}
        </datalist>
      )}
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="model-paths-empty">
          {t('iamRoles.modelPaths.empty')}
        </Text>
      ) : (
        <Table withTableBorder verticalSpacing={4} data-testid="model-paths">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('iamRoles.modelPaths.path')}</Table.Th>
              <Table.Th scope="col" ta="center">
                {t('iamRoles.modelPaths.read')}
              </Table.Th>
              <Table.Th scope="col" ta="center">
                {t('iamRoles.modelPaths.write')}
              </Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('iamRoles.modelPaths.remove')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((field, index) => (
              <Table.Tr key={field.id}>
                <Table.Td>
                  <TextInput
                    size="xs"
                    ff="monospace"
                    placeholder="/plant/line1"
                    list={suggestions ? suggestionsId : undefined}
                    aria-label={t('iamRoles.modelPaths.pathOf', { row: index + 1 })}
                    readOnly={readOnly}
                    error={errors?.[index]?.path?.message}
                    {...form.register(`modelPathPermissions.${index}.path`, {
                      validate: (path, values) => {
                        const problem = modelPathError(path, values.modelPathPermissions);
                        return problem === undefined || t(`iamRoles.modelPaths.${problem}`);
                      },
                    })}
                  />
                </Table.Td>
                <Table.Td ta="center">
                  <Checkbox
                    style={{ display: 'inline-block' }}
                    aria-label={t('iamRoles.modelPaths.readOf', { row: index + 1 })}
                    disabled={readOnly}
                    {...form.register(`modelPathPermissions.${index}.read`)}
                  />
                </Table.Td>
                <Table.Td ta="center">
                  <Checkbox
                    style={{ display: 'inline-block' }}
                    aria-label={t('iamRoles.modelPaths.writeOf', { row: index + 1 })}
                    disabled={readOnly}
                    {...form.register(`modelPathPermissions.${index}.write`)}
                  />
                </Table.Td>
                <Table.Td>
                  {!readOnly && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => remove(index)}
                      aria-label={t('iamRoles.modelPaths.removeOf', { row: index + 1 })}
                    >
                      {t('iamRoles.modelPaths.remove')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!readOnly && (
        <Group>
          <Button size="xs" variant="light" onClick={() => append({ path: '/', read: true, write: false })}>
            {t('iamRoles.modelPaths.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** A device role's reach: device groups and devices by id, and whether VPN access to them is allowed. */
export function DeviceAccessFields({ form, readOnly }: Props) {
  const { t } = useTranslation();
  const validIds = (ids: string[]) => {
    const bad = firstInvalidId(ids);
    return bad === undefined || t('iamRoles.device.invalidId', { value: bad });
  };
  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="deviceGroupIds"
        rules={{ validate: validIds }}
        render={({ field, fieldState }) => (
          <TagsInput
            label={t('iamRoles.device.groups')}
            description={t('iamRoles.device.idsHint')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            readOnly={readOnly}
            clearable={!readOnly}
          />
        )}
      />
      <Controller
        control={form.control}
        name="deviceIds"
        rules={{ validate: validIds }}
        render={({ field, fieldState }) => (
          <TagsInput
            label={t('iamRoles.device.devices')}
            description={t('iamRoles.device.idsHint')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            readOnly={readOnly}
            clearable={!readOnly}
          />
        )}
      />
      <Controller
        control={form.control}
        name="vpn"
        render={({ field }) => (
          <Switch
            label={t('iamRoles.device.vpn')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            disabled={readOnly}
          />
        )}
      />
    </Stack>
  );
}
