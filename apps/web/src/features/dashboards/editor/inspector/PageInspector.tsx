import type { DashboardDocument, DeviceSlot, Page, Variable } from '@edgeport/dashboard-schema';
import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { showEditorMessage } from '../../../../shared/ui/editor-messages.ts';
import type { ListChange } from '../../model/types.ts';
import { DeviceSelect } from './DeviceSelect.tsx';
import { useModelNames } from './lookups.ts';
import {
  formListChange,
  fromSlotRows,
  fromVariableRows,
  type NameProblem,
  nextName,
  type SlotRow,
  slotNameProblem,
  toSlotRows,
  toVariableRows,
  usedNames,
  type VariableRow,
  variableNameProblem,
} from './page-settings.ts';
import { useFollowedText } from './use-followed-text.ts';
import { useFormFollows } from './use-form-follows.ts';
import { sameJson } from './widget-form.ts';

type Props = {
  document: DashboardDocument;
  page: Page;
  onRenamePage: (title: string) => void;
  onSlots: (slots: ListChange<DeviceSlot>) => void;
  onVariables: (variables: ListChange<Variable>) => void;
};

/** With the page selected: its title, then the dashboard's device slots and variables. */
export function PageInspector({ document, page, onRenamePage, onSlots, onVariables }: Props) {
  const { t } = useTranslation();
  const used = useMemo(() => usedNames(document), [document]);
  return (
    <Stack gap="md" data-testid="page-inspector">
      <Title order={3} size="h6">
        {t('dashboardEditor.inspector.pageTitle')}
      </Title>
      <PageTitle key={page.id} title={page.title} onRename={onRenamePage} />
      <SlotsEditor slots={document.slots} used={used.slots} onChange={onSlots} />
      <VariablesEditor variables={document.variables} used={used.variables} onChange={onVariables} />
    </Stack>
  );
}

function PageTitle({ title, onRename }: { title: string; onRename: (title: string) => void }) {
  const { t } = useTranslation();
  const { text, setText, noteCommit } = useFollowedText(title);
  const trimmed = text.trim();
  const error =
    trimmed === ''
      ? t('dashboardEditor.pages.titleRequired')
      : trimmed.length > 100
        ? t('dashboardEditor.pages.titleTooLong', { max: 100 })
        : undefined;
  const commit = () => {
    if (error || trimmed === title) return;
    noteCommit(trimmed);
    onRename(trimmed);
  };
  return (
    <TextInput
      size="xs"
      label={t('dashboardEditor.pages.titleLabel')}
      value={text}
      error={error}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      data-testid="page-title"
    />
  );
}

const slotFormValues = (slots: readonly DeviceSlot[]) => ({ slots: toSlotRows(slots) });
const variableFormValues = (variables: readonly Variable[]) => ({ variables: toVariableRows(variables) });

function nameProblemText(t: TFunction, problem: NameProblem | undefined) {
  return problem ? t(`dashboardEditor.inspector.nameProblems.${problem}`, { max: 32 }) : undefined;
}

/**
 * Hands on a list form's commits as changes of the editor's current list (`formListChange`): the names the form has
 * shown or made since it last followed its source are its own, the rest of the current list is kept.
 */
function useListCommit<Item extends { name: string }>(
  shown: readonly Item[],
  onChange: (change: ListChange<Item>) => void,
) {
  const known = useRef(new Set<string>());
  return {
    commit: (edited: readonly Item[]) => {
      for (const item of [...shown, ...edited]) known.current.add(item.name);
      onChange(formListChange(edited, known.current));
    },
    forget: () => known.current.clear(),
  };
}

const enterApplies = (commit: () => void) => (event: KeyboardEvent) => {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
    event.preventDefault();
    commit();
  }
};

function SlotsEditor({
  slots,
  used,
  onChange,
}: {
  slots: readonly DeviceSlot[];
  used: ReadonlySet<string>;
  onChange: (slots: ListChange<DeviceSlot>) => void;
}) {
  const { t } = useTranslation();
  const models = useModelNames();
  const form = useForm<{ slots: SlotRow[] }>({ defaultValues: { slots: toSlotRows(slots) } });
  const { control, register, getValues } = form;
  const rows = useFieldArray({ control, name: 'slots' });
  const [problems, setProblems] = useState<Record<number, NameProblem>>({});
  const listCommit = useListCommit(slots, onChange);
  const handOn = useFormFollows({
    form,
    source: slots,
    toValues: slotFormValues,
    onReset: () => {
      setProblems({});
      listCommit.forget();
    },
    onCommit: listCommit.commit,
  });

  const commit = () => {
    const values = getValues().slots;
    const found: Record<number, NameProblem> = {};
    values.forEach((row, index) => {
      const others = values.filter((_, at) => at !== index).map((other) => other.name.trim());
      const problem = slotNameProblem(row.name.trim(), others);
      if (problem) found[index] = problem;
    });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const next = fromSlotRows(values);
    if (!sameJson(next, slots)) handOn(next);
  };
  // Added to and removed from the editor's current list: a second click may come before this list shows the first.
  const add = () =>
    onChange((current) => {
      const name = nextName(
        'slot',
        current.map((slot) => slot.name),
      );
      return [...current, { name, label: name }];
    });
  const remove = (index: number) => {
    const slot = slots[index];
    if (!slot) return;
    if (used.has(slot.name)) {
      showEditorMessage({ color: 'orange', message: t('dashboardEditor.slots.inUse', { name: slot.name }) });
      return;
    }
    onChange((current) => current.filter((other) => other.name !== slot.name));
  };
  const modelOptions = [
    { value: '', label: t('dashboardEditor.slots.noModel') },
    ...(models.data ?? []).map((model) => ({ value: model.id, label: model.name })),
  ];

  return (
    <Fieldset legend={t('dashboardEditor.slots.title')} variant="filled" p="xs" data-testid="slots-editor">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Enter in a field applies it, like leaving it */}
      <div onBlur={commit} onKeyDown={enterApplies(commit)}>
        <Stack gap="sm">
          {rows.fields.length === 0 && (
            <Text size="xs" c="dimmed">
              {t('dashboardEditor.slots.empty')}
            </Text>
          )}
          {rows.fields.map((row, index) => {
            const inUse = used.has(slots[index]?.name ?? '');
            return (
              <Stack key={row.id} gap={4} data-testid={`slot-row-${index}`}>
                <Group gap="xs" grow align="flex-start" wrap="nowrap">
                  <TextInput
                    size="xs"
                    label={t('dashboardEditor.slots.name')}
                    {...register(`slots.${index}.name`)}
                    readOnly={inUse}
                    description={inUse ? t('dashboardEditor.slots.nameInUse') : undefined}
                    error={nameProblemText(t, problems[index])}
                    data-testid={`slot-name-${index}`}
                  />
                  <TextInput
                    size="xs"
                    label={t('dashboardEditor.slots.label')}
                    maxLength={100}
                    {...register(`slots.${index}.label`)}
                    data-testid={`slot-label-${index}`}
                  />
                </Group>
                <Controller
                  control={control}
                  name={`slots.${index}.modelId`}
                  render={({ field }) => (
                    <Select
                      size="xs"
                      label={t('dashboardEditor.slots.model')}
                      data={modelOptions}
                      value={field.value}
                      onChange={(next) => {
                        field.onChange(next ?? '');
                        commit();
                      }}
                      allowDeselect={false}
                      searchable
                      data-testid={`slot-model-${index}`}
                      comboboxProps={{ withinPortal: true }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`slots.${index}.defaultDeviceId`}
                  render={({ field }) => (
                    <DeviceSelect
                      label={t('dashboardEditor.slots.defaultDevice')}
                      value={field.value}
                      noneLabel={t('dashboardEditor.slots.firstOfModel')}
                      testId={`slot-device-${index}`}
                      onChange={(next) => {
                        field.onChange(next);
                        commit();
                      }}
                    />
                  )}
                />
                <Tooltip
                  label={inUse ? t('dashboardEditor.slots.inUseShort') : t('dashboardEditor.slots.remove')}
                >
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    style={{ alignSelf: 'flex-end' }}
                    aria-label={t('dashboardEditor.slots.removeNamed', { name: row.name })}
                    onClick={() => remove(index)}
                    data-testid={`slot-remove-${index}`}
                  >
                    ✕
                  </ActionIcon>
                </Tooltip>
              </Stack>
            );
          })}
          <Button
            size="compact-xs"
            variant="light"
            onClick={add}
            disabled={slots.length >= 20}
            data-testid="slot-add"
            style={{ alignSelf: 'flex-start' }}
          >
            {t('dashboardEditor.slots.add')}
          </Button>
        </Stack>
      </div>
    </Fieldset>
  );
}

function VariablesEditor({
  variables,
  used,
  onChange,
}: {
  variables: readonly Variable[];
  used: ReadonlySet<string>;
  onChange: (variables: ListChange<Variable>) => void;
}) {
  const { t } = useTranslation();
  const form = useForm<{ variables: VariableRow[] }>({
    defaultValues: { variables: toVariableRows(variables) },
  });
  const { control, register, getValues } = form;
  const rows = useFieldArray({ control, name: 'variables' });
  const [problems, setProblems] = useState<Record<number, NameProblem>>({});
  const [badInitial, setBadInitial] = useState<number | null>(null);
  const listCommit = useListCommit(variables, onChange);
  const handOn = useFormFollows({
    form,
    source: variables,
    toValues: variableFormValues,
    onReset: () => {
      setProblems({});
      setBadInitial(null);
      listCommit.forget();
    },
    onCommit: listCommit.commit,
  });

  const commit = () => {
    const values = getValues().variables;
    const found: Record<number, NameProblem> = {};
    values.forEach((row, index) => {
      const others = values.filter((_, at) => at !== index).map((other) => other.name.trim());
      const problem = variableNameProblem(row.name.trim(), others);
      if (problem) found[index] = problem;
    });
    setProblems(found);
    const result = fromVariableRows(values);
    setBadInitial(result.ok ? null : result.badInitial);
    if (Object.keys(found).length > 0 || !result.ok) return;
    if (!sameJson(result.variables, variables)) handOn(result.variables);
  };
  const add = () =>
    onChange((current) => {
      const name = nextName(
        'var',
        current.map((variable) => variable.name),
      );
      return [...current, { name, type: 'number', initial: 0 }];
    });
  const remove = (index: number) => {
    const variable = variables[index];
    if (!variable) return;
    if (used.has(variable.name)) {
      showEditorMessage({
        color: 'orange',
        message: t('dashboardEditor.variables.inUse', { name: variable.name }),
      });
      return;
    }
    onChange((current) => current.filter((other) => other.name !== variable.name));
  };

  return (
    <Fieldset
      legend={t('dashboardEditor.variables.title')}
      variant="filled"
      p="xs"
      data-testid="variables-editor"
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Enter in a field applies it, like leaving it */}
      <div onBlur={commit} onKeyDown={enterApplies(commit)}>
        <Stack gap="sm">
          {rows.fields.length === 0 && (
            <Text size="xs" c="dimmed">
              {t('dashboardEditor.variables.empty')}
            </Text>
          )}
          {rows.fields.map((row, index) => {
            const inUse = used.has(variables[index]?.name ?? '');
            return (
              <Group
                key={row.id}
                gap={4}
                align="flex-start"
                wrap="nowrap"
                data-testid={`variable-row-${index}`}
              >
                <TextInput
                  size="xs"
                  flex={1}
                  label={t('dashboardEditor.variables.name')}
                  {...register(`variables.${index}.name`)}
                  readOnly={inUse}
                  error={nameProblemText(t, problems[index])}
                  data-testid={`variable-name-${index}`}
                />
                <Controller
                  control={control}
                  name={`variables.${index}.type`}
                  render={({ field }) => (
                    <Select
                      size="xs"
                      w={90}
                      label={t('dashboardEditor.variables.type')}
                      data={(['number', 'string', 'boolean'] as const).map((value) => ({
                        value,
                        label: t(`dashboardEditor.variables.types.${value}`),
                      }))}
                      value={field.value}
                      onChange={(next) => {
                        field.onChange(next ?? 'number');
                        commit();
                      }}
                      allowDeselect={false}
                      comboboxProps={{ withinPortal: true }}
                    />
                  )}
                />
                <TextInput
                  size="xs"
                  flex={1}
                  label={t('dashboardEditor.variables.initial')}
                  {...register(`variables.${index}.initial`)}
                  error={badInitial === index ? t('dashboardEditor.inspector.problems.valueType') : undefined}
                  data-testid={`variable-initial-${index}`}
                />
                <ActionIcon
                  size="sm"
                  mt={24}
                  variant="subtle"
                  color="red"
                  aria-label={t('dashboardEditor.variables.removeNamed', { name: row.name })}
                  onClick={() => remove(index)}
                >
                  ✕
                </ActionIcon>
              </Group>
            );
          })}
          <Button
            size="compact-xs"
            variant="light"
            onClick={add}
            disabled={variables.length >= 100}
            data-testid="variable-add"
            style={{ alignSelf: 'flex-start' }}
          >
            {t('dashboardEditor.variables.add')}
          </Button>
        </Stack>
      </div>
    </Fieldset>
  );
}
