import type { Binding, DashboardDocument, Widget } from '@edgeport/dashboard-schema';
import {
  Accordion,
  Button,
  Checkbox,
  Code,
  Group,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { type KeyboardEvent, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { widgetLabelKey } from '../../widgets/palette.ts';
import { ActionEditor } from './ActionEditor.tsx';
import { BindingEditor } from './BindingEditor.tsx';
import { ImageAssetField } from './ImageAssetField.tsx';
import { useFormFollows } from './use-form-follows.ts';
import {
  applyForm,
  type FieldProblem,
  type FormField,
  toForm,
  type WidgetFormValues,
} from './widget-form.ts';

type Props = {
  widget: Widget;
  document: DashboardDocument;
  dashboardId: string | undefined;
  /** An edit: `next` made from `base`, the widget as shown (the editor's state a moment ago). */
  onUpdate: (base: Widget, next: Widget) => void;
  /** Experimental editorInspector: the widget's JSON. */
  showJson: boolean;
  /** Experimental formulaMapping: a formula field for each device binding. */
  formulaMapping?: boolean;
  /** Experimental widgetPermissions: who sees the widget in the viewer. */
  widgetPermissions?: boolean;
};

const SERIES_LIMIT: Partial<Record<Widget['type'], number>> = { lineChart: 8, barChart: 8, table: 50 };

/**
 * The selected widget's title, bindings and type-specific options. Text fields take effect when leaving them (or on
 * Enter), choices at once; each change is one undo step, and a change that alters nothing makes none.
 */
export function WidgetInspector({
  widget,
  document,
  dashboardId,
  onUpdate,
  showJson,
  formulaMapping = false,
  widgetPermissions = false,
}: Props) {
  const { t } = useTranslation();
  // An edit that changes nothing makes no step: rebaseEdit gives the current widget back, which the editor ignores.
  const update = (next: Widget) => onUpdate(widget, next);

  return (
    <Stack gap="sm" data-testid="widget-inspector" data-inspected={widget.id}>
      <Title order={3} size="h6">
        {t('dashboardEditor.inspector.widgetTitle', { type: t(widgetLabelKey(widget.type)) })}
      </Title>
      <OptionsForm
        widget={widget}
        document={document}
        onUpdate={update}
        widgetPermissions={widgetPermissions}
      />
      <WidgetBindings widget={widget} document={document} onUpdate={update} formula={formulaMapping} />
      {widget.type === 'button' && (
        <ActionEditor
          document={document}
          action={widget.action}
          dashboardId={dashboardId}
          onChange={(action) => update({ ...widget, action })}
        />
      )}
      {widget.type === 'image' && (
        <ImageAssetField
          dashboardId={dashboardId}
          source={widget.options.source}
          asset={widget.options.asset}
          onChange={({ source, asset }) =>
            update({ ...widget, options: { ...widget.options, source, asset } })
          }
        />
      )}
      {showJson && (
        <Accordion variant="contained" data-testid="widget-json">
          <Accordion.Item value="json">
            <Accordion.Control>{t('dashboardEditor.inspector.json')}</Accordion.Control>
            <Accordion.Panel>
              <Code block style={{ maxHeight: 320, overflow: 'auto', fontSize: 11 }}>
                {JSON.stringify(widget, null, 2)}
              </Code>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      )}
    </Stack>
  );
}

function problemText(t: TFunction, problem: FieldProblem | undefined): string | undefined {
  if (!problem) return undefined;
  return t(`dashboardEditor.inspector.problems.${problem.problem}`, problem);
}

function OptionsForm({
  widget,
  document,
  onUpdate,
  widgetPermissions,
}: {
  widget: Widget;
  document: DashboardDocument;
  onUpdate: (next: Widget) => void;
  widgetPermissions: boolean;
}) {
  const { t } = useTranslation();
  const form = useForm<WidgetFormValues>({ defaultValues: toForm(widget) });
  const [problems, setProblems] = useState<Partial<Record<FormField, FieldProblem>>>({});
  const { register, control, getValues } = form;
  // Undo, redo and other changes of the widget show up in the form.
  const handOn = useFormFollows({
    form,
    source: widget,
    toValues: toForm,
    onReset: () => setProblems({}),
    onCommit: onUpdate,
  });

  const commit = () => {
    const result = applyForm(widget, getValues());
    if (!result.ok) {
      setProblems(result.errors);
      return;
    }
    setProblems({});
    handOn(result.widget);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      commit();
    }
  };
  const field = (
    name: FormField,
    label: string,
    extra: { description?: string; placeholder?: string } = {},
  ) => (
    <TextInput
      size="xs"
      label={label}
      {...extra}
      {...register(name)}
      error={problemText(t, problems[name])}
      data-testid={`inspector-${name}`}
    />
  );
  const numeric = (name: FormField, label: string) => (
    <TextInput
      size="xs"
      label={label}
      inputMode="decimal"
      {...register(name)}
      error={problemText(t, problems[name])}
      data-testid={`inspector-${name}`}
    />
  );
  const choice = <Name extends 'size' | 'fit' | 'alarmSlot' | 'visibleTo'>(
    name: Name,
    label: string,
    data: { value: string; label: string }[],
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field: controlled }) => (
        <Select
          size="xs"
          label={label}
          data={data}
          value={controlled.value}
          onChange={(next) => {
            controlled.onChange(next ?? '');
            commit();
          }}
          allowDeselect={false}
          data-testid={`inspector-${name}`}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
  const toggle = (name: 'showAlarms' | 'confirm', label: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field: controlled }) => (
        <Checkbox
          size="xs"
          label={label}
          checked={controlled.value}
          onChange={(event) => {
            controlled.onChange(event.currentTarget.checked);
            commit();
          }}
          data-testid={`inspector-${name}`}
        />
      )}
    />
  );

  return (
    <form
      onBlur={commit}
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        commit();
      }}
      aria-label={t('dashboardEditor.inspector.options')}
    >
      <Stack gap="xs">
        {field('title', t('dashboardEditor.inspector.title'))}
        {(widget.type === 'value' || widget.type === 'gauge' || widget.type === 'setpoint') &&
          field('unit', t('dashboardEditor.inspector.unit'))}
        {(widget.type === 'value' || widget.type === 'gauge') &&
          numeric('decimals', t('dashboardEditor.inspector.decimals'))}
        {(widget.type === 'gauge' || widget.type === 'setpoint') && (
          <Group grow gap="xs" align="flex-start">
            {numeric('min', t('dashboardEditor.inspector.min'))}
            {numeric('max', t('dashboardEditor.inspector.max'))}
          </Group>
        )}
        {widget.type === 'setpoint' && numeric('step', t('dashboardEditor.inspector.step'))}
        {(widget.type === 'lineChart' || widget.type === 'barChart') &&
          numeric('windowSeconds', t('dashboardEditor.inspector.windowSeconds'))}
        {widget.type === 'barChart' && numeric('bucketSeconds', t('dashboardEditor.inspector.bucketSeconds'))}
        {widget.type === 'deviceTable' && numeric('pageSize', t('dashboardEditor.inspector.pageSize'))}
        {widget.type === 'alarmList' && (
          <>
            {choice('alarmSlot', t('dashboardEditor.inspector.alarmSlot'), [
              { value: '', label: t('dashboardEditor.inspector.allSlots') },
              ...document.slots.map((slot) => ({ value: slot.name, label: slot.label || slot.name })),
            ])}
            {numeric('limit', t('dashboardEditor.inspector.limit'))}
          </>
        )}
        {widget.type === 'map' && toggle('showAlarms', t('dashboardEditor.inspector.showAlarms'))}
        {widget.type === 'text' && (
          <>
            <Textarea
              size="xs"
              label={t('dashboardEditor.inspector.text')}
              autosize
              minRows={3}
              maxRows={10}
              {...register('text')}
              error={problemText(t, problems.text)}
              data-testid="inspector-text"
            />
            {choice(
              'size',
              t('dashboardEditor.inspector.size'),
              (['sm', 'md', 'lg', 'xl'] as const).map((value) => ({
                value,
                label: t(`dashboardEditor.inspector.sizes.${value}`),
              })),
            )}
          </>
        )}
        {widget.type === 'button' && field('label', t('dashboardEditor.inspector.label'))}
        {widget.type === 'switch' && toggle('confirm', t('dashboardEditor.inspector.confirm'))}
        {widget.type === 'iframe' &&
          field('url', t('dashboardEditor.inspector.url'), {
            description: t('dashboardEditor.inspector.urlHint'),
            placeholder: 'https://',
          })}
        {widget.type === 'image' && (
          <>
            {field('alt', t('dashboardEditor.inspector.alt'))}
            {choice('fit', t('dashboardEditor.inspector.fit'), [
              { value: 'contain', label: t('dashboardEditor.inspector.fits.contain') },
              { value: 'cover', label: t('dashboardEditor.inspector.fits.cover') },
            ])}
          </>
        )}
        {widgetPermissions &&
          choice('visibleTo', t('dashboardEditor.inspector.visibleTo'), [
            { value: 'everyone', label: t('dashboardEditor.inspector.visibleToEveryone') },
            { value: 'editors', label: t('dashboardEditor.inspector.visibleToEditors') },
          ])}
      </Stack>
    </form>
  );
}

function WidgetBindings({
  widget,
  document,
  onUpdate,
  formula,
}: {
  widget: Widget;
  document: DashboardDocument;
  onUpdate: (next: Widget) => void;
  formula: boolean;
}) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);

  if (widget.type === 'value' || widget.type === 'gauge') {
    return (
      <BindingEditor
        document={document}
        value={widget.binding}
        label={t('dashboardEditor.binding.label')}
        allowVariables
        optional
        formula={formula}
        testId="binding"
        onChange={(binding) => onUpdate(withBinding(widget, binding))}
      />
    );
  }
  if (widget.type === 'switch' || widget.type === 'setpoint') {
    return (
      <BindingEditor
        document={document}
        value={widget.binding}
        label={t('dashboardEditor.binding.label')}
        allowVariables={false}
        optional
        pathTypes={widget.type === 'switch' ? ['boolean'] : ['number', 'integer']}
        // A switch's values are booleans, which formulas leave as they are.
        formula={formula && widget.type === 'setpoint'}
        testId="binding"
        onChange={(binding) => {
          if (binding && !('slot' in binding)) return;
          onUpdate(withBinding(widget, binding));
        }}
      />
    );
  }
  if (widget.type === 'lineChart' || widget.type === 'barChart' || widget.type === 'table') {
    const limit = SERIES_LIMIT[widget.type] ?? 8;
    const setBindings = (bindings: Binding[]) => onUpdate({ ...widget, bindings });
    return (
      <Stack gap="xs" data-testid="bindings">
        <Text size="xs" fw={500}>
          {t('dashboardEditor.binding.series', { count: widget.bindings.length })}
        </Text>
        {widget.bindings.map((binding, index) => (
          <Group
            // biome-ignore lint/suspicious/noArrayIndexKey: series are identified by their place
            key={index}
            gap={4}
            align="flex-end"
            wrap="nowrap"
          >
            <div style={{ flex: 1, minWidth: 0 }}>
              <BindingEditor
                document={document}
                value={binding}
                label={t('dashboardEditor.binding.seriesItem', { number: index + 1 })}
                allowVariables
                optional={false}
                formula={formula}
                testId={`binding-${index}`}
                onChange={(next) => {
                  if (!next) return;
                  setBindings(widget.bindings.map((old, at) => (at === index ? next : old)));
                }}
              />
            </div>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              aria-label={t('dashboardEditor.binding.remove', { number: index + 1 })}
              onClick={() => setBindings(widget.bindings.filter((_, at) => at !== index))}
            >
              ✕
            </Button>
          </Group>
        ))}
        {adding && (
          <BindingEditor
            document={document}
            value={undefined}
            label={t('dashboardEditor.binding.seriesItem', { number: widget.bindings.length + 1 })}
            allowVariables
            optional={false}
            testId={`binding-${widget.bindings.length}`}
            onChange={(next) => {
              if (!next) return;
              setAdding(false);
              setBindings([...widget.bindings, next]);
            }}
          />
        )}
        {!adding && widget.bindings.length < limit && (
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setAdding(true)}
            data-testid="binding-add"
            style={{ alignSelf: 'flex-start' }}
          >
            {t('dashboardEditor.binding.add')}
          </Button>
        )}
      </Stack>
    );
  }
  return null;
}

/** The widget with its single binding set or removed. */
function withBinding<W extends Extract<Widget, { type: 'value' | 'gauge' | 'switch' | 'setpoint' }>>(
  widget: W,
  binding: Binding | undefined,
): W {
  const next = { ...widget };
  if (binding === undefined) delete next.binding;
  else (next as { binding?: Binding }).binding = binding;
  return next;
}
