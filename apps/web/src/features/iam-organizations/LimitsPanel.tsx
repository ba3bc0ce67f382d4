import {
  Button,
  Center,
  Group,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../shared/http/describe.ts';
import { isHttpError } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { FailureAlert } from '../notifications/FailureAlert.tsx';
import { type FailureText, failureText } from '../notifications/failure.ts';
import { fetchLimits, type Limits, limitsQueryKey, saveLimits } from './limits-api.ts';
import {
  LEVEL_COLORS,
  LIMIT_KEYS,
  LIMIT_MAX,
  type LimitsFormValues,
  limitProblem,
  limitsToValues,
  RETENTION_KEY,
  refusesRetention,
  retentionProblem,
  usageOf,
  valuesToLimitsInput,
} from './limits-form.ts';
import type { ScopedAccess } from './scoped-access.ts';

/**
 * The organization's limits (devices, users, dashboards, data points and notifications per day) with what it uses of
 * them, and how many days of raw device values it keeps. They are set from an organization above it (a top-level
 * organization sets its own).
 */
export function LimitsPanel({ access }: { access: ScopedAccess }) {
  const { t } = useTranslation();
  const { organization } = access;
  const [editing, setEditing] = useState(false);
  const limits = useQuery({
    queryKey: limitsQueryKey(organization.id),
    queryFn: async ({ signal }) => fetchLimits(await access.token(), organization.id, signal),
  });
  const fromAbove = !access.entered || organization.parentId === null;
  const canEdit = access.ability.can('UPDATE', 'organizations') && fromAbove;

  if (limits.isPending)
    return (
      <Center p="md">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    );
  if (limits.isError)
    return (
      <LoadFailed
        title={t('iamOrganizations.limits.loadFailed')}
        message={describeError(t, limits.error)}
        onRetry={() => void limits.refetch()}
      />
    );

  return (
    <Stack gap="sm" data-testid="limits-panel">
      <Text size="sm" c="dimmed">
        {limits.data.defined
          ? t('iamOrganizations.limits.intro', { name: organization.name })
          : t('iamOrganizations.limits.none', { name: organization.name })}
      </Text>
      {editing ? (
        <LimitsForm access={access} limits={limits.data} onDone={() => setEditing(false)} />
      ) : (
        <>
          <UsageTable limits={limits.data} />
          <RetentionSummary retention={limits.data.retention} own={limits.data.limits[RETENTION_KEY]} />
          {canEdit ? (
            <Group>
              <Button variant="light" onClick={() => setEditing(true)} data-testid="edit-limits">
                {t(limits.data.defined ? 'iamOrganizations.limits.edit' : 'iamOrganizations.limits.define')}
              </Button>
            </Group>
          ) : (
            access.ability.can('UPDATE', 'organizations') && (
              <Text size="xs" c="dimmed">
                {t('iamOrganizations.limits.fromAbove')}
              </Text>
            )
          )}
        </>
      )}
    </Stack>
  );
}

function UsageTable({ limits }: { limits: Limits }) {
  const { t, i18n } = useTranslation();
  const format = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  return (
    <Table aria-label={t('iamOrganizations.limits.tableLabel')} verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('iamOrganizations.limits.columns.limit')}</Table.Th>
          <Table.Th>{t('iamOrganizations.limits.columns.usage')}</Table.Th>
          <Table.Th w="40%">
            <VisuallyHidden>{t('iamOrganizations.limits.columns.bar')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {LIMIT_KEYS.map((key) => {
          const used = limits.usage[key];
          const limit = limits.limits[key];
          const { percent, level } = usageOf(used, limit);
          const label = t(`iamOrganizations.limits.keys.${key}`);
          return (
            <Table.Tr key={key} data-limit={key}>
              <Table.Td>{label}</Table.Td>
              <Table.Td data-testid={`usage-${key}`}>
                {limit === null
                  ? t('iamOrganizations.limits.usedUnlimited', { used: format.format(used) })
                  : t('iamOrganizations.limits.usedOf', {
                      used: format.format(used),
                      limit: format.format(limit),
                    })}
              </Table.Td>
              <Table.Td>
                {limit === null ? (
                  <Text size="xs" c="dimmed">
                    {t('iamOrganizations.limits.unlimited')}
                  </Text>
                ) : (
                  <Progress
                    value={percent}
                    color={LEVEL_COLORS[level]}
                    aria-label={t('iamOrganizations.limits.barLabel', {
                      name: label,
                      percent: Math.round(percent),
                    })}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** The days in words, in the interface's number format ("1 day", "3,650 days"). */
function useDays(): (days: number) => string {
  const { t, i18n } = useTranslation();
  const format = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  return (days) =>
    t('iamOrganizations.limits.retention.days', { count: days, formatted: format.format(days) });
}

/** How long the organization's raw values are kept (its own setting or the server's default), and the summaries. */
function RetentionSummary({ retention, own }: { retention: Limits['retention']; own: number | null }) {
  const { t } = useTranslation();
  const days = useDays();
  return (
    <Stack gap={2} data-testid="retention-summary">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {t('iamOrganizations.limits.retention.title')}
        </Text>
        <Text size="sm" data-testid="retention-days">
          {own === null
            ? t('iamOrganizations.limits.retention.serverDefault', { days: days(retention.days) })
            : days(retention.days)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('iamOrganizations.limits.retention.summaries', { days: days(retention.rollupDays) })}
      </Text>
    </Stack>
  );
}

function LimitsForm({
  access,
  limits,
  onDone,
}: {
  access: ScopedAccess;
  limits: Limits;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const days = useDays();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<FailureText | null>(null);
  const form = useForm<LimitsFormValues>({ defaultValues: limitsToValues(limits.limits) });
  const { maxDays, defaultDays, rollupDays } = limits.retention;
  const save = useMutation({
    mutationFn: async (values: LimitsFormValues) =>
      saveLimits(
        await access.token(),
        access.organization.id,
        valuesToLimitsInput(values, maxDays),
        limits.defined,
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(limitsQueryKey(access.organization.id), saved);
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.limits.saved', { name: access.organization.name }),
      });
      onDone();
    },
    onError: async (error) => {
      if (isHttpError(error) && error.status === 400 && refusesRetention(error.serverMessage))
        form.setError(RETENTION_KEY, { message: t('iamOrganizations.limits.retention.refused') });
      setFailure(
        failureText(t, error, {
          400: t('iamOrganizations.limits.refused'),
          403: t('iamOrganizations.limits.forbidden'),
          404: t('iamOrganizations.errors.gone'),
          409: t('iamOrganizations.limits.exists'),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: limitsQueryKey(access.organization.id) });
    },
  });
  return (
    <form
      noValidate
      data-testid="limits-form"
      onSubmit={form.handleSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
    >
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          {t('iamOrganizations.limits.formHint')}
        </Text>
        {LIMIT_KEYS.map((key) => (
          <TextInput
            key={key}
            label={t(`iamOrganizations.limits.keys.${key}`)}
            placeholder={t('iamOrganizations.limits.unlimited')}
            inputMode="numeric"
            error={form.formState.errors[key]?.message}
            {...form.register(key, {
              validate: (value) => {
                const problem = limitProblem(value);
                return problem
                  ? t(`iamOrganizations.limits.validation.${problem}`, { max: LIMIT_MAX })
                  : true;
              },
            })}
          />
        ))}
        <TextInput
          label={t('iamOrganizations.limits.retention.label')}
          description={t('iamOrganizations.limits.retention.hint', {
            default: days(defaultDays),
            max: days(maxDays),
            summaries: days(rollupDays),
          })}
          placeholder={t('iamOrganizations.limits.retention.placeholder', { days: days(defaultDays) })}
          inputMode="numeric"
          error={form.formState.errors[RETENTION_KEY]?.message}
          {...form.register(RETENTION_KEY, {
            validate: (value) => {
              const problem = retentionProblem(value, maxDays);
              return problem
                ? t(`iamOrganizations.limits.retention.validation.${problem}`, { max: days(maxDays) })
                : true;
            },
          })}
        />
        <FailureAlert failure={failure} testId="limits-failure" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('iamOrganizations.limits.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
