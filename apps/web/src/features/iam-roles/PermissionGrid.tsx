import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { Checkbox, Table, Text, TextInput } from '@mantine/core';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { parseConditions, type RoleFormValues } from './role-form.ts';

type Props = { form: UseFormReturn<RoleFormValues>; readOnly: boolean };

/**
 * Actions x resource types as real checkboxes ("READ devices"), a "cannot" mark per row and the row's conditions as
 * JSON text, checked before the role is saved.
 */
export function PermissionGrid({ form, readOnly }: Props) {
  const { t } = useTranslation();
  const errors = form.formState.errors.grid;
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped withTableBorder withColumnBorders verticalSpacing={4} data-testid="permission-grid">
        <caption style={{ captionSide: 'top', textAlign: 'left' }}>
          <Text size="sm" c="dimmed">
            {t('iamRoles.grid.caption')}
          </Text>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('iamRoles.grid.resource')}</Table.Th>
            {ACTIONS.map((action) => (
              <Table.Th key={action} scope="col" ta="center">
                <Text size="xs" ff="monospace">
                  {action}
                </Text>
              </Table.Th>
            ))}
            <Table.Th scope="col" ta="center">
              {t('iamRoles.grid.cannot')}
            </Table.Th>
            <Table.Th scope="col">{t('iamRoles.grid.conditions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RESOURCE_TYPES.map((rsname, index) => (
            <Table.Tr key={rsname} data-resource={rsname}>
              <Table.Th scope="row">
                <Text size="sm" ff="monospace">
                  {rsname}
                </Text>
              </Table.Th>
              {ACTIONS.map((action) => (
                <Table.Td key={action} ta="center">
                  <Checkbox
                    aria-label={`${action} ${rsname}`}
                    disabled={readOnly}
                    style={{ display: 'inline-block' }}
                    {...form.register(`grid.${index}.actions.${action}`)}
                  />
                </Table.Td>
              ))}
              <Table.Td ta="center">
                <Checkbox
                  color="red"
                  aria-label={t('iamRoles.grid.cannotFor', { resource: rsname })}
                  disabled={readOnly}
                  style={{ display: 'inline-block' }}
                  {...form.register(`grid.${index}.inverted`)}
                />
              </Table.Td>
              <Table.Td miw={200}>
                <TextInput
                  size="xs"
                  ff="monospace"
                  placeholder='{"field": "value"}'
                  aria-label={t('iamRoles.grid.conditionsFor', { resource: rsname })}
                  readOnly={readOnly}
                  error={errors?.[index]?.conditions?.message}
                  {...form.register(`grid.${index}.conditions`, {
                    validate: (text) => {
                      const parsed = parseConditions(text);
                      return parsed.ok || t(`iamRoles.grid.${parsed.error}`, { resource: rsname });
                    },
                  })}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
