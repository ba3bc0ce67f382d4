import {
  FLOW_ICONS,
  type FlowEntry,
  type FlowIcon as FlowIconName,
  type FlowTarget,
  readDocument,
} from '@edgeport/dashboard-schema';
import {
  Alert,
  Button,
  ColorInput,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { collectionKeys, type Dashboard, fetchVersion } from '../../dashboards/api.ts';
import { fetchDevices } from '../../devices/api.ts';
import { FlowIcon } from '../icons.tsx';

/** What the form gives back: an entry without its id and place (the editor keeps or assigns those). */
export type EntryDraft = Omit<FlowEntry, 'id' | 'position'>;

type Values = {
  kind: FlowTarget['kind'];
  targetId: string | null;
  alias: string;
  icon: FlowIconName;
  color: string;
  parentId: string | null;
  slots: Record<string, string | null>;
};

const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const SWATCHES = ['#1c7ed6', '#0ca678', '#f59f00', '#e8590c', '#c2255c', '#7048e8', '#495057', '#2f9e44'];

/** Add or edit an entry: what it opens (a dashboard with optional devices for its slots, or a flow), alias, icon, colour, parent. */
export function EntryForm({
  opened,
  entry,
  dashboards,
  flows,
  parents,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  /** The entry being edited; absent when adding. */
  entry: FlowEntry | undefined;
  dashboards: readonly Dashboard[];
  flows: readonly Dashboard[];
  /** The entries that may be the parent (never the entry itself or one below it). */
  parents: readonly FlowEntry[];
  /** Applies the draft; answers a problem to show (a cycle) or null when done. */
  onSubmit: (draft: EntryDraft) => string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={
        entry ? t('flows.editor.form.editTitle', { alias: entry.alias }) : t('flows.editor.form.addTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && (
        <Form
          entry={entry}
          dashboards={dashboards}
          flows={flows}
          parents={parents}
          onSubmit={onSubmit}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function initialValues(entry: FlowEntry | undefined): Values {
  if (!entry) {
    return {
      kind: 'dashboard',
      targetId: null,
      alias: '',
      icon: 'dashboard',
      color: '#1c7ed6',
      parentId: null,
      slots: {},
    };
  }
  const target = entry.target;
  return {
    kind: target.kind,
    targetId: target.kind === 'dashboard' ? target.dashboardId : target.flowId,
    alias: entry.alias,
    icon: entry.icon,
    color: entry.color,
    parentId: entry.parentId ?? null,
    slots: target.kind === 'dashboard' ? { ...target.slots } : {},
  };
}

function Form({
  entry,
  dashboards,
  flows,
  parents,
  onSubmit,
  onClose,
}: {
  entry: FlowEntry | undefined;
  dashboards: readonly Dashboard[];
  flows: readonly Dashboard[];
  parents: readonly FlowEntry[];
  onSubmit: (draft: EntryDraft) => string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: initialValues(entry) });
  const kind = form.watch('kind');
  const targetId = form.watch('targetId');
  const options = (kind === 'dashboard' ? dashboards : flows).map((item) => ({
    value: item.id,
    label: item.name,
  }));
  const chosenDashboard = kind === 'dashboard' ? dashboards.find((item) => item.id === targetId) : undefined;

  const submit = form.handleSubmit((values) => {
    if (!values.targetId) return;
    const slots = Object.fromEntries(
      Object.entries(values.slots).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
    );
    const pinned = entry?.target.kind === 'dashboard' && entry.target.dashboardId === values.targetId;
    const target: FlowTarget =
      values.kind === 'dashboard'
        ? {
            kind: 'dashboard',
            dashboardId: values.targetId,
            ...(pinned && entry?.target.kind === 'dashboard' && entry.target.version !== undefined
              ? { version: entry.target.version }
              : {}),
            ...(Object.keys(slots).length > 0 ? { slots } : {}),
          }
        : { kind: 'flow', flowId: values.targetId };
    const draft: EntryDraft = {
      alias: values.alias.trim(),
      icon: values.icon,
      color: values.color.toLowerCase(),
      target,
      ...(values.parentId ? { parentId: values.parentId } : {}),
    };
    setProblem(onSubmit(draft));
  });

  return (
    <form noValidate onSubmit={submit} data-testid="flow-entry-form">
      <Stack gap="sm">
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="flow-entry-kind">
                {t('flows.editor.form.kind')}
              </Text>
              <SegmentedControl
                aria-labelledby="flow-entry-kind"
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  form.setValue('targetId', null);
                  form.setValue('slots', {});
                  form.setValue('icon', value === 'flow' ? 'folder' : 'dashboard');
                }}
                data={[
                  { value: 'dashboard', label: t('flows.viewer.kind.dashboard') },
                  { value: 'flow', label: t('flows.viewer.kind.flow') },
                ]}
              />
            </Stack>
          )}
        />
        <Controller
          control={form.control}
          name="targetId"
          rules={{ validate: (value) => value !== null || t('flows.editor.form.targetRequired') }}
          render={({ field, fieldState }) => (
            <Select
              label={
                kind === 'dashboard'
                  ? t('flows.editor.form.dashboardTarget')
                  : t('flows.editor.form.flowTarget')
              }
              placeholder={t('flows.editor.form.pick')}
              data={options}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                form.setValue('slots', {});
                const name = options.find((option) => option.value === value)?.label;
                if (name && !form.getValues('alias').trim()) form.setValue('alias', name.slice(0, 100));
              }}
              searchable
              required
              nothingFoundMessage={t('flows.editor.form.nothingFound')}
              error={fieldState.error?.message}
              data-testid="flow-entry-target"
            />
          )}
        />
        <TextInput
          label={t('flows.editor.form.alias')}
          required
          maxLength={100}
          error={form.formState.errors.alias?.message}
          {...form.register('alias', {
            validate: (value) => value.trim().length > 0 || t('flows.editor.form.aliasRequired'),
          })}
        />
        <Group grow align="flex-start">
          <Controller
            control={form.control}
            name="icon"
            render={({ field }) => (
              <Select
                label={t('flows.editor.form.icon')}
                data={FLOW_ICONS.map((icon) => ({ value: icon, label: t(`flows.icons.${icon}`) }))}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                allowDeselect={false}
                leftSection={<FlowIcon name={field.value} size={18} />}
                renderOption={({ option }) => (
                  <Group gap="xs" wrap="nowrap">
                    <FlowIcon name={option.value as FlowIconName} size={18} />
                    <span>{option.label}</span>
                  </Group>
                )}
              />
            )}
          />
          <Controller
            control={form.control}
            name="color"
            rules={{ validate: (value) => COLOR_PATTERN.test(value) || t('flows.editor.form.colorInvalid') }}
            render={({ field, fieldState }) => (
              <ColorInput
                label={t('flows.editor.form.color')}
                format="hex"
                swatches={SWATCHES}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        </Group>
        <Controller
          control={form.control}
          name="parentId"
          render={({ field }) => (
            <Select
              label={t('flows.editor.form.parent')}
              description={t('flows.editor.form.parentHint')}
              placeholder={t('flows.editor.form.noParent')}
              data={parents.map((parent) => ({ value: parent.id, label: parent.alias }))}
              value={field.value}
              onChange={field.onChange}
              clearable
              searchable
            />
          )}
        />
        {chosenDashboard && <SlotDevices form={form} dashboard={chosenDashboard} />}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" data-testid="flow-entry-submit">
            {entry ? t('flows.editor.form.apply') : t('flows.editor.form.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Optional devices for the chosen dashboard's slots (empty: the dashboard's own default for the slot). */
function SlotDevices({
  form,
  dashboard,
}: {
  form: ReturnType<typeof useForm<Values>>;
  dashboard: Dashboard;
}) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canListDevices = ability.can('READ', 'devices');
  const version = useQuery({
    queryKey: collectionKeys.version(organization.id, 'dashboards', dashboard.id, dashboard.currentVersion),
    queryFn: async ({ signal }) =>
      fetchVersion(await token(), 'dashboards', dashboard.id, dashboard.currentVersion, signal),
  });
  const devices = useQuery({
    queryKey: ['flows', organization.id, 'slot-devices'],
    queryFn: async ({ signal }) =>
      fetchDevices(
        await token(),
        organization.id,
        { page: 0, pageSize: 500, sort: 'label', order: 'asc' },
        signal,
      ),
    enabled: canListDevices,
    staleTime: 60_000,
  });
  if (!canListDevices) return null;
  if (version.isPending) {
    return (
      <Text size="sm" c="dimmed">
        {t('common.loading')}
      </Text>
    );
  }
  const read = version.data ? readDocument('dashboard', version.data.document) : undefined;
  const slots = read?.ok ? read.document.slots : [];
  if (version.isError || slots.length === 0) return null;
  const deviceOptions = (devices.data?.items ?? []).map((device) => ({
    value: device.id,
    label: device.alias ? `${device.label} (${device.alias})` : device.label,
  }));
  return (
    <Stack gap="xs" data-testid="flow-entry-slots">
      <Text size="sm" fw={500}>
        {t('flows.editor.form.slots')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('flows.editor.form.slotsHint')}
      </Text>
      {slots.map((slot) => (
        <Controller
          key={slot.name}
          control={form.control}
          name={`slots.${slot.name}`}
          render={({ field }) => (
            <Select
              label={slot.label || slot.name}
              placeholder={t('flows.editor.form.slotDefault')}
              data={deviceOptions}
              value={field.value ?? null}
              onChange={field.onChange}
              clearable
              searchable
              nothingFoundMessage={t('flows.editor.form.nothingFound')}
            />
          )}
        />
      ))}
    </Stack>
  );
}
