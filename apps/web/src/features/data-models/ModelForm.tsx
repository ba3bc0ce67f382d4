import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type UseFormRegister, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';
import { createModel, type Model, updateModel, validateModel } from './api.ts';
import { issueText, saveFailure } from './messages.ts';
import {
  draftPaths,
  emptyForm,
  emptyRow,
  formFromModel,
  formToDraft,
  type Issue,
  type IssueField,
  issueAt,
  type ModelDraft,
  type ModelFormValues,
  PATH_TYPES,
  parseServerMessage,
  pathsChanged,
  placeIssues,
} from './model-form.ts';
import { PathsTree } from './PathsView.tsx';
import { MODELS_KEY } from './query-keys.ts';

const VALIDATE_DELAY_MS = 400;

type Props = {
  /** The model to change, or null for a new one. */
  model: Model | null;
  /** The `structs` flag: a tree preview of the paths under the editor. */
  structs: boolean;
  onSaved: (model: Model) => void;
};

/**
 * Name, description and the paths editor of a model. Every change is checked by `POST /models/validate` (debounced)
 * and each problem is shown beside the row and field it names; saving changed paths makes a new version.
 */
export function ModelForm({ model, structs, onSaved }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const form = useForm<ModelFormValues>({
    defaultValues: model ? formFromModel(model) : emptyForm(),
    mode: 'onSubmit',
  });
  const rows = useFieldArray({ control: form.control, name: 'paths' });
  const watched = useWatch({ control: form.control });
  const { draft, rowOf, localIssues } = useMemo(
    () =>
      formToDraft({
        name: watched.name ?? '',
        description: watched.description ?? '',
        paths: (watched.paths ?? []).map((row) => ({ ...emptyRow(), ...row })),
      }),
    [watched],
  );
  const draftKey = JSON.stringify({ draft, rowOf });
  const [checkedKey] = useDebouncedValue(draftKey, VALIDATE_DELAY_MS);
  const touched = form.formState.isDirty;
  const [saveIssues, setSaveIssues] = useState<{ key: string; issues: Issue[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const validation = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'validate', checkedKey],
    queryFn: async ({ signal }) => {
      const checked = JSON.parse(checkedKey) as { draft: ModelDraft; rowOf: number[] };
      const result = await validateModel(await token(), organization.id, checked.draft, signal);
      return { key: checkedKey, valid: result.valid, issues: placeIssues(result.errors, checked.rowOf) };
    },
    enabled: touched,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  const checkedNow = validation.data?.key === draftKey && !validation.isFetching;
  const serverIssues = touched ? (validation.data?.issues ?? []) : [];
  const issues: Issue[] = [
    ...localIssues,
    ...serverIssues,
    ...(saveIssues && saveIssues.key === draftKey ? saveIssues.issues : []),
  ];
  const showName = form.formState.touchedFields.name === true || form.formState.isSubmitted;
  const nameIssue = issues.find((issue) => issue.field === 'name');
  const listIssue = issues.find((issue) => issue.field === 'paths');
  const problemCount = issues.filter((issue) => issue.field !== 'name' || showName).length;
  const changed = model ? pathsChanged(draft.paths, model.paths) : true;
  // Only problems known for what is on screen now block saving; the server checks again anyway.
  const blocked = localIssues.length > 0 || (checkedNow && validation.data?.valid === false);

  const save = useMutation({
    mutationFn: async () => {
      const accessToken = await token();
      const body = { name: draft.name, description: draft.description ?? '', paths: draftPaths(draft) };
      return model
        ? updateModel(accessToken, organization.id, model.id, body)
        : createModel(accessToken, organization.id, body);
    },
    onSuccess: async (saved) => {
      const message = !model
        ? t('dataModels.editor.created', { name: saved.name })
        : saved.currentVersion > model.currentVersion
          ? t('dataModels.editor.savedVersion', { name: saved.name, version: saved.currentVersion })
          : t('dataModels.editor.saved', { name: saved.name });
      notifications.show({ color: 'green', message });
      queryClient.setQueryData([MODELS_KEY, organization.id, 'model', saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id] });
      onSaved(saved);
    },
    onError: (error) => {
      if (hasStatus(error, 400) && isHttpError(error)) {
        const placed = placeIssues(parseServerMessage(error.serverMessage), rowOf);
        if (placed.length > 0) setSaveIssues({ key: draftKey, issues: placed });
      }
      if (hasStatus(error, 409)) form.setError('name', { message: t('dataModels.errors.modelNameTaken') });
      setFailure(saveFailure(t, 'model', error));
    },
  });

  const submit = form.handleSubmit(() => {
    setFailure(null);
    if (draft.name === '') return;
    if (blocked) {
      setFailure(t('dataModels.editor.fixFirst', { count: Math.max(problemCount, 1) }));
      return;
    }
    save.mutate();
  });

  return (
    <form noValidate onSubmit={submit} data-testid="model-form">
      <Stack gap="md">
        <TextInput
          label={t('dataModels.editor.name')}
          required
          maxLength={120}
          error={
            form.formState.errors.name?.message ??
            (nameIssue && showName ? issueText(t, nameIssue) : undefined)
          }
          {...form.register('name', {
            validate: (name) => name.trim() !== '' || t('dataModels.validation.nameBlank'),
          })}
        />
        <Textarea
          label={t('dataModels.editor.description')}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={2000}
          {...form.register('description')}
        />
        <Group justify="space-between" align="flex-end">
          <Title order={3} size="h5">
            {t('dataModels.editor.paths')}
          </Title>
          <ValidationState
            touched={touched}
            checking={validation.isFetching || checkedKey !== draftKey}
            failed={validation.isError}
            problems={problemCount}
          />
        </Group>
        {listIssue && (
          <Text size="sm" c="red" role="alert">
            {issueText(t, listIssue)}
          </Text>
        )}
        <PathsEditor
          register={form.register}
          fields={rows.fields}
          issues={issues}
          onRemove={(index) => rows.remove(index)}
        />
        <Group>
          <Button variant="light" onClick={() => rows.append(emptyRow())} data-testid="add-path">
            {t('dataModels.editor.addPath')}
          </Button>
        </Group>
        {structs && draft.paths.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('dataModels.editor.structure')}
            </Text>
            <PathsTree
              key={JSON.stringify(draft.paths.map((entry) => entry.path))}
              paths={draftPaths(draft)}
              label={t('dataModels.editor.structure')}
            />
          </Stack>
        )}
        {model && (
          <Alert color={changed ? 'blue' : 'gray'} variant="light" data-testid="version-note">
            {changed
              ? t('dataModels.editor.newVersion', { version: model.currentVersion + 1 })
              : t('dataModels.editor.sameVersion', { version: model.currentVersion })}
          </Alert>
        )}
        {failure && (
          <Alert color="red" title={t('dataModels.editor.saveFailed')} role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => {
              form.reset();
              setFailure(null);
              setSaveIssues(null);
            }}
            disabled={!touched || save.isPending}
          >
            {t('dataModels.editor.reset')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="save-model">
            {model ? t('dataModels.editor.save') : t('dataModels.editor.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ValidationState(props: { touched: boolean; checking: boolean; failed: boolean; problems: number }) {
  const { t } = useTranslation();
  if (!props.touched) return null;
  if (props.checking)
    return (
      <Group gap={6}>
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('dataModels.editor.checking')}
        </Text>
      </Group>
    );
  if (props.failed)
    return (
      <Text size="sm" c="orange">
        {t('dataModels.editor.checkFailed')}
      </Text>
    );
  return (
    <Text size="sm" c={props.problems > 0 ? 'red' : 'teal'} data-testid="validation-state" aria-live="polite">
      {props.problems > 0
        ? t('dataModels.editor.problems', { count: props.problems })
        : t('dataModels.editor.valid')}
    </Text>
  );
}

type EditorProps = {
  register: UseFormRegister<ModelFormValues>;
  fields: { id: string }[];
  issues: readonly Issue[];
  onRemove: (index: number) => void;
};

/** The rows of the paths editor: path, type, unit, writable, min, max, description; each row can be removed. */
function PathsEditor({ register, fields, issues, onRemove }: EditorProps) {
  const { t } = useTranslation();
  const error = (row: number, field: IssueField) => {
    const issue = issueAt(issues, row, field);
    return issue ? issueText(t, issue) : undefined;
  };
  return (
    <Table.ScrollContainer minWidth={980} maxHeight="55vh">
      <Table stickyHeader aria-label={t('dataModels.editor.pathsTable')} verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>#</Table.Th>
            <Table.Th miw={200}>{t('dataModels.paths.path')}</Table.Th>
            <Table.Th w={130}>{t('dataModels.paths.type')}</Table.Th>
            <Table.Th w={90}>{t('dataModels.paths.unit')}</Table.Th>
            <Table.Th w={80}>{t('dataModels.paths.writable')}</Table.Th>
            <Table.Th w={100}>{t('dataModels.paths.min')}</Table.Th>
            <Table.Th w={100}>{t('dataModels.paths.max')}</Table.Th>
            <Table.Th miw={160}>{t('dataModels.paths.description')}</Table.Th>
            <Table.Th w={50}>
              <VisuallyHidden>{t('dataModels.editor.rowActions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field, index) => {
            const number = index + 1;
            return (
              <Table.Tr key={field.id} data-testid={`path-row-${index}`} style={{ verticalAlign: 'top' }}>
                <Table.Td>
                  <Text size="sm" c="dimmed" pt={6}>
                    {number}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('dataModels.editor.rowPath', { row: number })}
                    placeholder="/motor/speed"
                    ff="monospace"
                    size="xs"
                    maxLength={300}
                    error={error(index, 'path')}
                    {...register(`paths.${index}.path`)}
                  />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={t('dataModels.editor.rowType', { row: number })}
                    size="xs"
                    data={PATH_TYPES.map((type) => ({ value: type, label: t(`dataModels.types.${type}`) }))}
                    error={error(index, 'type')}
                    {...register(`paths.${index}.type`)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('dataModels.editor.rowUnit', { row: number })}
                    size="xs"
                    maxLength={40}
                    error={error(index, 'unit')}
                    {...register(`paths.${index}.unit`)}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    mt={6}
                    aria-label={t('dataModels.editor.rowWritable', { row: number })}
                    {...register(`paths.${index}.writable`)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('dataModels.editor.rowMin', { row: number })}
                    size="xs"
                    inputMode="decimal"
                    error={error(index, 'min')}
                    {...register(`paths.${index}.min`)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('dataModels.editor.rowMax', { row: number })}
                    size="xs"
                    inputMode="decimal"
                    error={error(index, 'max')}
                    {...register(`paths.${index}.max`)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('dataModels.editor.rowDescription', { row: number })}
                    size="xs"
                    maxLength={500}
                    error={error(index, 'description')}
                    {...register(`paths.${index}.description`)}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={2}
                    aria-label={t('dataModels.editor.removeRow', { row: number })}
                    onClick={() => onRemove(index)}
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
