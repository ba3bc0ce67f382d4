import {
  Alert,
  Button,
  Checkbox,
  Drawer,
  Group,
  JsonInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';
import {
  createPreset,
  type FormulaCheck,
  fetchModelNames,
  fetchModelVersions,
  type PresetInput,
  startPresetJob,
} from './api.ts';
import { formulaQueryKey, MappingTable } from './MappingTable.tsx';
import {
  ASYNC_THRESHOLD,
  createsInBackground,
  initialMappingState,
  mappingIssues,
  mappingReducer,
  parseConfiguration,
  placeMappingErrors,
  type RowIssues,
  sentKeys,
  toMappings,
} from './mapping-table.ts';
import { loadFailure, saveFailure } from './messages.ts';
import { parseServerMessage } from './model-form.ts';
import { MODELS_KEY, PRESETS_KEY } from './query-keys.ts';
import { useFeatureFlag } from './use-flag.ts';

export type StartedJob = { id: string; name: string };

type Props = {
  opened: boolean;
  onClose: () => void;
  /** A preset was created at once: open it. */
  onCreated: (id: string) => void;
  /** A preset is being created in the background: follow its progress. */
  onJobStarted: (job: StartedJob) => void;
};

/** A new preset in a drawer: name, model (and version), the mapping table, device configuration. */
export function PresetCreateDrawer({ opened, onClose, onCreated, onJobStarted }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="min(100%, 1080px)"
      title={t('dataModels.presets.newTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <PresetForm onCreated={onCreated} onJobStarted={onJobStarted} />}
    </Drawer>
  );
}

function PresetForm({ onCreated, onJobStarted }: Pick<Props, 'onCreated' | 'onJobStarted'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const formulas = useFeatureFlag('formulaMapping');
  const [name, setName] = useState('');
  const [modelId, setModelId] = useState<string | null>(null);
  const [versionChoice, setVersionChoice] = useState<string | null>(null);
  const [configuration, setConfiguration] = useState('{}');
  const [askedBackground, setAskedBackground] = useState(false);
  const [state, dispatch] = useReducer(mappingReducer, undefined, initialMappingState);
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [refused, setRefused] = useState<ReadonlyMap<string, RowIssues>>(new Map());

  const names = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'names'],
    queryFn: async ({ signal }) => fetchModelNames(await token(), organization.id, signal),
  });
  const versions = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'versions', modelId],
    queryFn: async ({ signal }) => fetchModelVersions(await token(), organization.id, modelId ?? '', signal),
    enabled: modelId !== null,
  });
  const current = versions.data?.find((version) => version.current);
  const chosen =
    versions.data?.find((version) => String(version.version) === versionChoice) ?? current ?? undefined;
  const paths = useMemo(() => chosen?.paths ?? [], [chosen]);

  const issues = useMemo(() => {
    const found = new Map(mappingIssues(state.rows, paths, formulas));
    for (const [key, issue] of refused) found.set(key, { ...issue, ...found.get(key) });
    return found;
  }, [state.rows, paths, formulas, refused]);
  const mappings = toMappings(state.rows, formulas);
  const forcedBackground = mappings.length > ASYNC_THRESHOLD;
  const background = createsInBackground(mappings.length, askedBackground);
  const parsedConfiguration = parseConfiguration(configuration);

  /** A formula the platform service already refused (its answers are cached by formula text). */
  const refusedFormula = () =>
    formulas &&
    mappings.some((mapping) => {
      if (!mapping.formula) return false;
      const check = queryClient.getQueryData<FormulaCheck>(formulaQueryKey(organization.id, mapping.formula));
      return check?.valid === false;
    });

  const create = useMutation({
    mutationFn: async (input: PresetInput) => {
      const accessToken = await token();
      if (background)
        return { kind: 'job' as const, job: await startPresetJob(accessToken, organization.id, input) };
      return { kind: 'preset' as const, preset: await createPreset(accessToken, organization.id, input) };
    },
    onSuccess: async (result, input) => {
      await queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id] });
      if (result.kind === 'job') {
        onJobStarted({ id: result.job.id, name: input.name });
        return;
      }
      notifications.show({
        color: 'green',
        message: t('dataModels.presets.created', { name: result.preset.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [PRESETS_KEY, organization.id] });
      onCreated(result.preset.id);
    },
    onError: (error) => {
      if (hasStatus(error, 400) && isHttpError(error))
        setRefused(placeMappingErrors(parseServerMessage(error.serverMessage), sentKeys(state.rows)));
      setFailure(saveFailure(t, 'preset', error));
    },
  });

  const submit = () => {
    setSubmitted(true);
    setFailure(null);
    setRefused(new Map());
    if (!name.trim() || !modelId || !chosen || parsedConfiguration === undefined) return;
    if (issues.size > 0 || refusedFormula()) {
      setFailure(t('dataModels.mappings.fixFirst'));
      return;
    }
    create.mutate({
      name: name.trim(),
      modelId,
      modelVersion: chosen.version,
      mappings,
      deviceConfiguration: parsedConfiguration,
    });
  };

  const modelOptions = (names.data ?? []).map((entry) => ({
    value: entry.id,
    label: entry.inherited ? `${entry.name} (${t('dataModels.badges.inherited')})` : entry.name,
  }));

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="preset-form"
    >
      <Stack gap="md">
        <TextInput
          label={t('dataModels.presets.name')}
          required
          maxLength={120}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={submitted && !name.trim() ? t('dataModels.presets.nameRequired') : undefined}
        />
        <Group grow align="flex-start">
          <Select
            label={t('dataModels.presets.model')}
            required
            searchable
            data={modelOptions}
            value={modelId}
            placeholder={names.isPending ? t('common.loading') : t('dataModels.presets.pickModel')}
            nothingFoundMessage={t('dataModels.presets.noModel')}
            error={
              names.isError
                ? loadFailure(t, 'model', names.error)
                : submitted && !modelId
                  ? t('dataModels.presets.modelRequired')
                  : undefined
            }
            onChange={(id) => {
              setModelId(id);
              setVersionChoice(null);
            }}
          />
          <Select
            label={t('dataModels.presets.version')}
            disabled={!versions.data}
            data={(versions.data ?? []).map((version) => ({
              value: String(version.version),
              label: version.current
                ? t('dataModels.presets.versionCurrent', { version: version.version })
                : t('dataModels.models.version', { version: version.version }),
            }))}
            value={chosen ? String(chosen.version) : null}
            error={versions.isError ? loadFailure(t, 'model', versions.error) : undefined}
            onChange={(value) => {
              setVersionChoice(value);
              const next = versions.data?.find((version) => String(version.version) === value);
              if (next) dispatch({ type: 'retarget', paths: next.paths });
            }}
          />
        </Group>
        <Group justify="space-between" align="flex-end">
          <Stack gap={0}>
            <Title order={3} size="h5">
              {t('dataModels.mappings.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {formulas ? t('dataModels.mappings.hintFormula') : t('dataModels.mappings.hint')}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button
              variant="light"
              size="xs"
              onClick={() => dispatch({ type: 'add' })}
              data-testid="add-mapping"
            >
              {t('dataModels.mappings.add')}
            </Button>
            <Button
              variant="light"
              size="xs"
              disabled={paths.length === 0}
              onClick={() => dispatch({ type: 'fill', paths })}
            >
              {t('dataModels.mappings.fill')}
            </Button>
            <Button variant="subtle" size="xs" color="gray" onClick={() => dispatch({ type: 'clear' })}>
              {t('dataModels.mappings.clear')}
            </Button>
          </Group>
        </Group>
        {modelId === null ? (
          <Text size="sm" c="dimmed" data-testid="mapping-pick-model">
            {t('dataModels.mappings.pickModelFirst')}
          </Text>
        ) : (
          <MappingTable
            rows={state.rows}
            dispatch={dispatch}
            paths={paths}
            issues={issues}
            formulas={formulas}
          />
        )}
        <JsonInput
          label={t('dataModels.presets.configuration')}
          description={t('dataModels.presets.configurationHint')}
          value={configuration}
          onChange={setConfiguration}
          autosize
          minRows={2}
          maxRows={10}
          formatOnBlur
          error={parsedConfiguration === undefined ? t('dataModels.presets.configurationInvalid') : undefined}
        />
        <Checkbox
          label={t('dataModels.presets.background')}
          description={
            forcedBackground
              ? t('dataModels.presets.backgroundForced', { count: ASYNC_THRESHOLD })
              : t('dataModels.presets.backgroundHint')
          }
          checked={background}
          disabled={forcedBackground}
          onChange={(event) => setAskedBackground(event.currentTarget.checked)}
          data-testid="create-in-background"
        />
        {failure && (
          <Alert color="red" title={t('dataModels.presets.createFailed')} role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed" data-testid="mapping-count">
            {t('dataModels.mappings.count', { count: mappings.length })}
          </Text>
          <Button type="submit" loading={create.isPending} data-testid="save-preset">
            {background ? t('dataModels.presets.createBackground') : t('dataModels.presets.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
