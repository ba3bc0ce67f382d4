import { ActionIcon, Group, Pagination, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type Dispatch, memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { validateFormula } from './api.ts';
import type { MappingAction, MappingRow, RowIssues, TargetPath } from './mapping-table.ts';
import { takesFormula } from './mapping-table.ts';
import { formulaProblem } from './messages.ts';
import { PRESETS_KEY } from './query-keys.ts';

/** Rows shown at once: a preset may bind thousands of tags; pages keep the table light. */
const ROWS_PER_PAGE = 100;
const FORMULA_DELAY_MS = 400;

type Props = {
  rows: readonly MappingRow[];
  dispatch: Dispatch<MappingAction>;
  paths: readonly TargetPath[];
  /** Problems by row key (keys under `dataModels.mappings.errors`). */
  issues: ReadonlyMap<string, RowIssues>;
  /** The experimental `formulaMapping` flag: the formula column shows only when it is on. */
  formulas: boolean;
};

/** The mapping table of a new preset: data tag -> model path (-> formula), paged by 100 rows. */
export function MappingTable({ rows, dispatch, paths, issues, formulas }: Props) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
  const current = Math.min(page, pages - 1);
  const options = useMemo(
    () =>
      paths.map((entry) => ({
        value: entry.path,
        label: `${entry.path} (${t(`dataModels.types.${entry.type}`)})`,
      })),
    [paths, t],
  );
  const shown = rows.slice(current * ROWS_PER_PAGE, (current + 1) * ROWS_PER_PAGE);

  return (
    <>
      <Table.ScrollContainer minWidth={formulas ? 820 : 620}>
        <Table
          aria-label={t('dataModels.mappings.tableLabel')}
          verticalSpacing={4}
          data-testid="mapping-table"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={48}>#</Table.Th>
              <Table.Th>{t('dataModels.mappings.tag')}</Table.Th>
              <Table.Th>{t('dataModels.mappings.path')}</Table.Th>
              {formulas && <Table.Th>{t('dataModels.mappings.formula')}</Table.Th>}
              <Table.Th w={50}>
                <VisuallyHidden>{t('dataModels.editor.rowActions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row, index) => (
              <MappingRowView
                key={row.key}
                row={row}
                number={current * ROWS_PER_PAGE + index + 1}
                options={options}
                formulaAllowed={takesFormula(paths, row.path)}
                issues={issues.get(row.key)}
                formulas={formulas}
                dispatch={dispatch}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('dataModels.mappings.count', { count: rows.length })}
          </Text>
          <Pagination
            total={pages}
            value={current + 1}
            onChange={(next) => setPage(next - 1)}
            getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
            getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
          />
        </Group>
      )}
    </>
  );
}

type RowProps = {
  row: MappingRow;
  number: number;
  options: { value: string; label: string }[];
  formulaAllowed: boolean;
  issues: RowIssues | undefined;
  formulas: boolean;
  dispatch: Dispatch<MappingAction>;
};

const MappingRowView = memo(function MappingRowView(props: RowProps) {
  const { t } = useTranslation();
  const { row, number, dispatch, issues } = props;
  const error = (key: string | undefined) => (key ? t(`dataModels.mappings.errors.${key}`) : undefined);
  return (
    <Table.Tr data-testid={`mapping-row-${number - 1}`} style={{ verticalAlign: 'top' }}>
      <Table.Td>
        <Text size="sm" c="dimmed" pt={6}>
          {number}
        </Text>
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          ff="monospace"
          maxLength={120}
          aria-label={t('dataModels.mappings.rowTag', { row: number })}
          value={row.tag}
          error={error(issues?.tag)}
          onChange={(event) =>
            dispatch({ type: 'set', key: row.key, field: 'tag', value: event.currentTarget.value })
          }
        />
      </Table.Td>
      <Table.Td>
        <Select
          size="xs"
          searchable
          clearable
          limit={100}
          aria-label={t('dataModels.mappings.rowPath', { row: number })}
          placeholder={t('dataModels.mappings.pickPath')}
          nothingFoundMessage={t('dataModels.mappings.noPath')}
          data={props.options}
          value={row.path}
          error={error(issues?.path)}
          onChange={(path) => dispatch({ type: 'setPath', key: row.key, path })}
          comboboxProps={{ withinPortal: true }}
        />
      </Table.Td>
      {props.formulas && (
        <Table.Td>
          <FormulaField
            value={row.formula}
            number={number}
            allowed={props.formulaAllowed}
            hasPath={row.path !== null}
            localIssue={issues?.formula}
            onChange={(value) => dispatch({ type: 'set', key: row.key, field: 'formula', value })}
          />
        </Table.Td>
      )}
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          mt={2}
          aria-label={t('dataModels.mappings.removeRow', { row: number })}
          onClick={() => dispatch({ type: 'remove', key: row.key })}
        >
          ×
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
});

/** The formula key of a check answered by `POST /preset/formula/validate`; cached by formula text. */
export function formulaQueryKey(organizationId: string, formula: string) {
  return [PRESETS_KEY, organizationId, 'formula', formula] as const;
}

/** A formula of `value`, checked by the platform service while typed (debounced). */
function FormulaField(props: {
  value: string;
  number: number;
  allowed: boolean;
  hasPath: boolean;
  localIssue: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [typed] = useDebouncedValue(props.value.trim(), FORMULA_DELAY_MS);
  const check = useQuery({
    queryKey: formulaQueryKey(organization.id, typed),
    queryFn: async ({ signal }) => validateFormula(await token(), organization.id, typed, signal),
    enabled: typed !== '' && props.allowed,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const settled = typed === props.value.trim() && !check.isFetching;
  const serverIssue =
    settled && check.data && !check.data.valid ? formulaProblem(check.data.error) : undefined;
  const issue = props.localIssue ?? serverIssue;
  const valid = settled && props.allowed && typed !== '' && check.data?.valid === true && !issue;
  return (
    <TextInput
      size="xs"
      ff="monospace"
      maxLength={500}
      placeholder={props.allowed ? 'value * 0.1' : undefined}
      disabled={!props.allowed && props.value.trim() === ''}
      aria-label={t('dataModels.mappings.rowFormula', { row: props.number })}
      value={props.value}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={issue ? t(`dataModels.mappings.errors.${issue}`) : undefined}
      description={
        valid
          ? t('dataModels.mappings.formulaValid')
          : props.hasPath && !props.allowed && props.value.trim() === ''
            ? t('dataModels.mappings.formulaNumbersOnly')
            : undefined
      }
      rightSection={check.isFetching ? <Text size="xs">…</Text> : undefined}
      onChange={(event) => props.onChange(event.currentTarget.value)}
    />
  );
}
