import type { Action, DashboardDocument } from '@edgeport/dashboard-schema';
import { Checkbox, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { fetchDashboard, fetchDashboards, fetchVersion } from '../api.ts';
import { EDITOR_QUERY_KEY } from '../query-keys.ts';
import { BindingEditor } from './BindingEditor.tsx';
import { DeviceSelect } from './DeviceSelect.tsx';
import { guessValue, parseValue } from './page-settings.ts';
import { useFollowedText } from './use-followed-text.ts';

type Props = {
  document: DashboardDocument;
  action: Action;
  onChange: (action: Action) => void;
  /** The dashboard being edited (not offered as a target of "load a dashboard"). */
  dashboardId: string | undefined;
};

const KINDS: Action['kind'][] = ['navigate', 'loadDashboard', 'write', 'setVariable'];

/**
 * What a button does: open a page of this dashboard, load another dashboard (with the device of each of its slots),
 * write a value to a device path (with confirmation), or set a dashboard variable. A kind whose target is not chosen
 * yet leaves the button's action as it was.
 */
export function ActionEditor({ document, action, onChange, dashboardId }: Props) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Action['kind']>(action.kind);
  useEffect(() => setKind(action.kind), [action.kind]);

  const chooseKind = (next: Action['kind']) => {
    setKind(next);
    if (next === action.kind) return;
    if (next === 'navigate') onChange({ kind: 'navigate', pageId: document.rootPageId });
    if (next === 'setVariable') {
      const variable = document.variables[0];
      if (variable) onChange({ kind: 'setVariable', variable: variable.name, value: variable.initial });
    }
  };

  return (
    <Stack gap="xs" data-testid="action-editor">
      <Select
        size="xs"
        label={t('dashboardEditor.action.kind')}
        data={KINDS.map((value) => ({ value, label: t(`dashboardEditor.action.kinds.${value}`) }))}
        value={kind}
        onChange={(next) => next && chooseKind(next as Action['kind'])}
        allowDeselect={false}
        data-testid="action-kind"
        comboboxProps={{ withinPortal: true }}
      />
      {kind === 'navigate' && (
        <Select
          size="xs"
          label={t('dashboardEditor.action.page')}
          data={document.pages.map((page) => ({ value: page.id, label: page.title }))}
          value={action.kind === 'navigate' ? action.pageId : null}
          onChange={(pageId) => pageId && onChange({ kind: 'navigate', pageId })}
          allowDeselect={false}
          data-testid="action-page"
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {kind === 'loadDashboard' && (
        <LoadDashboardFields
          document={document}
          action={action.kind === 'loadDashboard' ? action : undefined}
          dashboardId={dashboardId}
          onChange={onChange}
        />
      )}
      {kind === 'write' && (
        <WriteFields
          document={document}
          action={action.kind === 'write' ? action : undefined}
          onChange={onChange}
        />
      )}
      {kind === 'setVariable' &&
        (document.variables.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('dashboardEditor.action.noVariables')}
          </Text>
        ) : (
          <SetVariableFields
            document={document}
            action={action.kind === 'setVariable' ? action : undefined}
            onChange={onChange}
          />
        ))}
    </Stack>
  );
}

type LoadAction = Extract<Action, { kind: 'loadDashboard' }>;

function LoadDashboardFields({
  document,
  action,
  dashboardId,
  onChange,
}: {
  document: DashboardDocument;
  action: LoadAction | undefined;
  dashboardId: string | undefined;
  onChange: (action: Action) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const targetId = action?.dashboardId;
  const target = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'target', targetId],
    queryFn: async ({ signal }) => {
      const bearerToken = await token();
      const dashboard = await fetchDashboard(bearerToken, targetId ?? '', signal);
      const version = await fetchVersion(bearerToken, dashboard.id, dashboard.currentVersion, signal);
      const slots = (version.document as { slots?: { name: string; label: string }[] }).slots;
      return { name: dashboard.name, slots: Array.isArray(slots) ? slots : [] };
    },
    enabled: targetId !== undefined,
  });
  // The field shows the chosen dashboard's name as its text: that is no search.
  const [debounced] = useDebouncedValue(search === target.data?.name ? '' : search.trim(), 250);
  const dashboards = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'dashboards', debounced],
    queryFn: async ({ signal }) => fetchDashboards(await token(), debounced, signal),
    placeholderData: keepPreviousData,
  });
  const options = useMemo(() => {
    const list = (dashboards.data?.items ?? [])
      .filter((item) => item.id !== dashboardId)
      .map((item) => ({ value: item.id, label: item.name }));
    if (targetId && !list.some((option) => option.value === targetId))
      list.push({ value: targetId, label: target.data?.name ?? targetId });
    return list;
  }, [dashboards.data, dashboardId, targetId, target.data?.name]);

  const setSlot = (name: string, choice: string) => {
    if (!action) return;
    const slots = { ...action.slots };
    if (choice === '') delete slots[name];
    else if (choice.startsWith('slot:')) slots[name] = { slot: choice.slice(5) };
    else if (choice.startsWith('device:')) slots[name] = { deviceId: choice.slice(7) };
    onChange({ ...action, slots });
  };

  return (
    <Stack gap="xs">
      <Select
        size="xs"
        label={t('dashboardEditor.action.dashboard')}
        data={options}
        value={targetId ?? null}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        onChange={(id) => id && onChange({ kind: 'loadDashboard', dashboardId: id, slots: {} })}
        nothingFoundMessage={t('dashboardEditor.action.noDashboards')}
        data-testid="action-dashboard"
        comboboxProps={{ withinPortal: true }}
      />
      {action &&
        target.data?.slots.map((slot) => (
          <TargetSlotField
            key={slot.name}
            document={document}
            label={slot.label || slot.name}
            source={action.slots[slot.name]}
            onChange={(choice) => setSlot(slot.name, choice)}
          />
        ))}
    </Stack>
  );
}

/** Where one slot of the loaded dashboard takes its device from: its default, one of this dashboard's slots, or a fixed device. */
function TargetSlotField({
  document,
  label,
  source,
  onChange,
}: {
  document: DashboardDocument;
  label: string;
  source: LoadAction['slots'][string] | undefined;
  /** '' (its default), `slot:{name}` or `device:{id}`. */
  onChange: (choice: string) => void;
}) {
  const { t } = useTranslation();
  const [fixed, setFixed] = useState(source !== undefined && 'deviceId' in source);
  const choice = fixed ? 'device' : source && 'slot' in source ? `slot:${source.slot}` : '';
  return (
    <Stack gap={4}>
      <Select
        size="xs"
        label={t('dashboardEditor.action.slotDevice', { slot: label })}
        data={[
          { value: '', label: t('dashboardEditor.action.slotDefault') },
          ...document.slots.map((own) => ({
            value: `slot:${own.name}`,
            label: t('dashboardEditor.action.sameAs', { slot: own.label || own.name }),
          })),
          { value: 'device', label: t('dashboardEditor.action.fixedDevice') },
        ]}
        value={choice}
        onChange={(next) => {
          const chosen = next ?? '';
          setFixed(chosen === 'device');
          if (chosen !== 'device') onChange(chosen);
        }}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      {fixed && (
        <DeviceSelect
          label={t('dashboardEditor.action.device')}
          value={source && 'deviceId' in source ? source.deviceId : ''}
          noneLabel={t('dashboardEditor.action.noDevice')}
          onChange={(deviceId) => deviceId && onChange(`device:${deviceId}`)}
        />
      )}
    </Stack>
  );
}

type WriteAction = Extract<Action, { kind: 'write' }>;

function WriteFields({
  document,
  action,
  onChange,
}: {
  document: DashboardDocument;
  action: WriteAction | undefined;
  onChange: (action: Action) => void;
}) {
  const { t } = useTranslation();
  const { text, setText, noteCommit } = useFollowedText(action ? String(action.value) : '');
  return (
    <Stack gap="xs">
      <BindingEditor
        document={document}
        value={action?.binding}
        label={t('dashboardEditor.action.target')}
        allowVariables={false}
        optional={false}
        testId="action-binding"
        onChange={(binding) => {
          if (!binding || !('slot' in binding)) return;
          onChange({
            kind: 'write',
            binding,
            value: action?.value ?? guessValue(text),
            confirm: action?.confirm ?? true,
          });
        }}
      />
      <TextInput
        size="xs"
        label={t('dashboardEditor.action.value')}
        description={t('dashboardEditor.action.valueHint')}
        value={text}
        disabled={!action}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={() => {
          const value = guessValue(text);
          if (!action || text.length > 1000 || value === action.value) return;
          noteCommit(String(value));
          onChange({ ...action, value });
        }}
        data-testid="action-value"
      />
      <Checkbox
        size="xs"
        label={t('dashboardEditor.action.confirm')}
        checked={action?.confirm ?? true}
        disabled={!action}
        onChange={(event) => action && onChange({ ...action, confirm: event.currentTarget.checked })}
      />
    </Stack>
  );
}

type SetVariableAction = Extract<Action, { kind: 'setVariable' }>;

function SetVariableFields({
  document,
  action,
  onChange,
}: {
  document: DashboardDocument;
  action: SetVariableAction | undefined;
  onChange: (action: Action) => void;
}) {
  const { t } = useTranslation();
  const variable = document.variables.find((candidate) => candidate.name === action?.variable);
  const { text, setText, noteCommit } = useFollowedText(action ? String(action.value) : '');
  const parsed = variable ? parseValue(variable.type, text) : undefined;
  return (
    <Stack gap="xs">
      <Select
        size="xs"
        label={t('dashboardEditor.action.variable')}
        data={document.variables.map((candidate) => candidate.name)}
        value={action?.variable ?? null}
        onChange={(name) => {
          const chosen = document.variables.find((candidate) => candidate.name === name);
          if (chosen) onChange({ kind: 'setVariable', variable: chosen.name, value: chosen.initial });
        }}
        allowDeselect={false}
        data-testid="action-variable"
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        size="xs"
        label={t('dashboardEditor.action.value')}
        value={text}
        disabled={!action}
        error={action && parsed === undefined ? t('dashboardEditor.inspector.problems.valueType') : undefined}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={() => {
          if (!action || parsed === undefined || parsed === action.value) return;
          noteCommit(String(parsed));
          onChange({ ...action, value: parsed });
        }}
        data-testid="action-variable-value"
      />
    </Stack>
  );
}
