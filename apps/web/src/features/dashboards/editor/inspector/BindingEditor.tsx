import type { Binding, DashboardDocument } from '@edgeport/dashboard-schema';
import {
  type ComboboxItem,
  type ComboboxItemGroup,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelPath } from '../api.ts';
import { boundTo, formulaProblem, withFormula } from './formula-field.ts';
import { useModelPaths } from './lookups.ts';
import { useFollowedText } from './use-followed-text.ts';

type Props = {
  document: DashboardDocument;
  value: Binding | undefined;
  /** A complete binding, or undefined when cleared. */
  onChange: (binding: Binding | undefined) => void;
  label: string;
  /** Variables may be bound too (values, gauges, charts, tables); writes need a device path. */
  allowVariables: boolean;
  /** Offer only the paths of these types (a switch writes booleans, a set-point numbers). */
  pathTypes?: readonly ModelPath['type'][];
  /** The binding can be removed ("None"). */
  optional: boolean;
  /**
   * Experimental formulaMapping: a device binding gets a formula of its `value` for what the widget shows. Without it
   * the field is hidden and a formula the binding has is kept.
   */
  formula?: boolean;
  testId: string;
};

const encodeSource = (binding: Binding | undefined) =>
  binding === undefined ? '' : 'slot' in binding ? `slot:${binding.slot}` : `variable:${binding.variable}`;

/**
 * A binding: a device slot and one of the paths of the slot's model (typed by hand when the slot names no model), or
 * a dashboard variable. It changes the widget only once it is complete.
 */
export function BindingEditor(props: Props) {
  const { t } = useTranslation();
  const { document, value } = props;
  const [source, setSource] = useState(encodeSource(value));
  useEffect(() => setSource(encodeSource(value)), [value]);

  const sources = useMemo(() => {
    const slots = document.slots.map((slot) => ({
      value: `slot:${slot.name}`,
      label: slot.label ? `${slot.label} (${slot.name})` : slot.name,
    }));
    const variables = props.allowVariables
      ? document.variables.map((variable) => ({ value: `variable:${variable.name}`, label: variable.name }))
      : [];
    const data: (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[] = [];
    if (props.optional) data.push({ value: '', label: t('dashboardEditor.binding.unbound') });
    if (slots.length > 0) data.push({ group: t('dashboardEditor.binding.slots'), items: slots });
    if (variables.length > 0) data.push({ group: t('dashboardEditor.binding.variables'), items: variables });
    return data;
  }, [document.slots, document.variables, props.allowVariables, props.optional, t]);

  const slotName = source.startsWith('slot:') ? source.slice(5) : undefined;
  const slot = document.slots.find((candidate) => candidate.name === slotName);
  const path = value && 'slot' in value && value.slot === slotName ? value.path : '';

  const chooseSource = (next: string | null) => {
    const chosen = next ?? '';
    setSource(chosen);
    if (chosen === '') props.onChange(undefined);
    else if (chosen.startsWith('variable:')) props.onChange({ variable: chosen.slice(9) });
    else if (value && 'slot' in value && chosen === `slot:${value.slot}`) props.onChange(value);
    // A slot without a path yet: the binding is complete once a path is chosen.
  };

  if (document.slots.length === 0 && (!props.allowVariables || document.variables.length === 0)) {
    return (
      <Stack gap={2}>
        <Text size="xs" fw={500}>
          {props.label}
        </Text>
        <Text size="xs" c="dimmed" data-testid={`${props.testId}-no-slots`}>
          {t('dashboardEditor.binding.noSlots')}
        </Text>
      </Stack>
    );
  }

  const paths = (
    <Group gap="xs" align="flex-start" grow wrap="nowrap">
      <Select
        size="xs"
        label={props.label}
        data={sources}
        value={source}
        onChange={chooseSource}
        allowDeselect={false}
        placeholder={t('dashboardEditor.binding.choose')}
        data-testid={`${props.testId}-source`}
        comboboxProps={{ withinPortal: true }}
      />
      {slot &&
        (slot.modelId ? (
          <ModelPathSelect
            modelId={slot.modelId}
            value={path}
            pathTypes={props.pathTypes}
            testId={`${props.testId}-path`}
            onChange={(chosen) => props.onChange(boundTo(value, slot.name, chosen))}
          />
        ) : (
          <FreePath
            value={path}
            testId={`${props.testId}-path`}
            onChange={(chosen) => props.onChange(boundTo(value, slot.name, chosen))}
          />
        ))}
    </Group>
  );
  if (!props.formula || !value || !('slot' in value) || value.slot !== slotName) return paths;
  return (
    <Stack gap={4}>
      {paths}
      <FormulaInput
        value={value.formula ?? ''}
        testId={`${props.testId}-formula`}
        onChange={(source) => props.onChange(withFormula(value, source))}
      />
    </Stack>
  );
}

/**
 * A binding's formula (formulaMapping), checked as it is typed; kept when leaving the field (or on Enter) if valid,
 * removed when emptied.
 */
function FormulaInput({
  value,
  testId,
  onChange,
}: {
  value: string;
  testId: string;
  onChange: (source: string) => void;
}) {
  const { t } = useTranslation();
  const { text, setText, noteCommit } = useFollowedText(value);
  const problem = useMemo(() => formulaProblem(text), [text]);
  const commit = () => {
    if (problem !== undefined || text.trim() === value) return;
    noteCommit(text.trim());
    onChange(text);
  };
  return (
    <TextInput
      size="xs"
      label={t('dashboardEditor.formula.label')}
      description={t('dashboardEditor.formula.hint')}
      placeholder="value * 1.8 + 32"
      value={text}
      error={problem ? t(`dashboardEditor.formula.problems.${problem}`) : undefined}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      spellCheck={false}
      autoComplete="off"
      data-testid={testId}
    />
  );
}

function ModelPathSelect({
  modelId,
  value,
  pathTypes,
  testId,
  onChange,
}: {
  modelId: string;
  value: string;
  pathTypes: Props['pathTypes'];
  testId: string;
  onChange: (path: string) => void;
}) {
  const { t } = useTranslation();
  const paths = useModelPaths(modelId);
  const data = useMemo(() => {
    const offered = (paths.data ?? [])
      .filter((path) => !pathTypes || pathTypes.includes(path.type))
      .map((path) => ({ value: path.path, label: path.unit ? `${path.path} (${path.unit})` : path.path }));
    if (value && !offered.some((option) => option.value === value)) offered.push({ value, label: value });
    return offered;
  }, [paths.data, pathTypes, value]);
  return (
    <Select
      size="xs"
      label={t('dashboardEditor.binding.path')}
      data={data}
      value={value || null}
      searchable
      onChange={(next) => next && onChange(next)}
      placeholder={paths.isPending ? t('common.loading') : t('dashboardEditor.binding.choosePath')}
      nothingFoundMessage={t('dashboardEditor.binding.noPaths')}
      error={paths.isError ? t('dashboardEditor.binding.pathsFailed') : undefined}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** A path typed by hand (the slot names no model): '/' then segments; kept when leaving the field. */
function FreePath({
  value,
  testId,
  onChange,
}: {
  value: string;
  testId: string;
  onChange: (path: string) => void;
}) {
  const { t } = useTranslation();
  const { text, setText, noteCommit } = useFollowedText(value);
  const valid = /^\/.+/.test(text) && text.length <= 300;
  const commit = () => {
    if (!valid || text === value) return;
    noteCommit(text);
    onChange(text);
  };
  return (
    <TextInput
      size="xs"
      label={t('dashboardEditor.binding.path')}
      value={text}
      placeholder="/motor/speed"
      error={text !== '' && !valid ? t('dashboardEditor.binding.pathInvalid') : undefined}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      data-testid={testId}
    />
  );
}
