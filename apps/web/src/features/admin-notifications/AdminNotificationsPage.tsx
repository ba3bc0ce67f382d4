import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Fieldset,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { FailureAlert } from '../notifications/FailureAlert.tsx';
import { type FailureText, failureText } from '../notifications/failure.ts';
import { fetchSettings, SETTINGS_KEY, type Settings, updateSettings } from './api.ts';
import {
  generateSecret,
  SETTINGS_LIMITS,
  type SettingsFormValues,
  type SettingsProblem,
  secretProblem,
  settingsProblems,
  settingsToValues,
  timeZones,
  valuesToUpdate,
} from './settings-form.ts';

/** Spec 2 /admin/notifications: the organization's notification channels (READ or UPDATE organizations). */
export default function AdminNotificationsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canRead = ability.can('READ', 'organizations');
  const canUpdate = ability.can('UPDATE', 'organizations');
  const settings = useQuery({
    queryKey: [SETTINGS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchSettings(await token(), organization.id, signal),
    enabled: canRead || canUpdate,
  });

  return (
    <Stack gap="md" p="md" maw={820} data-testid="admin-notifications-page">
      <Title order={1} size="h2">
        {t('adminNotifications.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('adminNotifications.intro', { organization: organization.name })}
      </Text>
      {!canUpdate && (
        <Alert color="blue" data-testid="read-only-note">
          {t('adminNotifications.readOnly')}
        </Alert>
      )}
      {settings.isPending ? (
        <Center p="xl">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Center>
      ) : settings.isError ? (
        <LoadFailed
          title={t('adminNotifications.loadFailed')}
          message={describeError(t, settings.error)}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <>
          <SecretCard settings={settings.data} canUpdate={canUpdate} />
          <SettingsForm key={settingsKey(settings.data)} settings={settings.data} canUpdate={canUpdate} />
        </>
      )}
    </Stack>
  );
}

/** Remounts the form when the stored settings change (after a save), so it shows what the server keeps. */
function settingsKey(settings: Settings): string {
  return JSON.stringify([settings.sender, settings.quietHours, settings.allowedWebhookHosts]);
}

function SettingsForm({ settings, canUpdate }: { settings: Settings; canUpdate: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<FailureText | null>(null);
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const form = useForm<SettingsFormValues>({ defaultValues: settingsToValues(settings) });
  const quiet = useWatch({ control: form.control, name: 'quietHoursEnabled' });
  const chosenZone = useWatch({ control: form.control, name: 'timeZone' });
  const zones = useMemo(() => timeZones(chosenZone), [chosenZone]);

  const save = useMutation({
    mutationFn: async (values: SettingsFormValues) =>
      updateSettings(await token(), organization.id, valuesToUpdate(values)),
    onSuccess: (saved) => {
      queryClient.setQueryData([SETTINGS_KEY, organization.id], saved);
      notifications.show({ color: 'green', message: t('adminNotifications.saved') });
    },
    onError: (error) =>
      setFailure(
        failureText(t, error, {
          400: t('adminNotifications.errors.invalid'),
          403: t('adminNotifications.errors.forbidden'),
        }),
      ),
  });

  const problem = (field: SettingsProblem['field']) => {
    const found = problems.find((candidate) => candidate.field === field);
    return found ? describeProblem(t, found) : undefined;
  };

  return (
    <Card withBorder padding="md">
      <form
        noValidate
        data-testid="channel-settings-form"
        onSubmit={form.handleSubmit((values) => {
          setFailure(null);
          const found = settingsProblems(values);
          setProblems(found);
          if (found.length === 0) save.mutate(values);
        })}
      >
        <Fieldset variant="unstyled" disabled={!canUpdate}>
          <Stack gap="md">
            <Title order={2} size="h4">
              {t('adminNotifications.email.title')}
            </Title>
            <TextInput
              label={t('adminNotifications.email.sender')}
              description={t('adminNotifications.email.senderHint')}
              placeholder={t('adminNotifications.email.senderPlaceholder')}
              type="email"
              autoComplete="off"
              maxLength={254}
              error={problem('sender')}
              {...form.register('sender')}
            />

            <Title order={2} size="h4">
              {t('adminNotifications.quiet.title')}
            </Title>
            <Controller
              control={form.control}
              name="quietHoursEnabled"
              render={({ field }) => (
                <Switch
                  label={t('adminNotifications.quiet.enabled')}
                  description={t('adminNotifications.quiet.hint')}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
            {quiet && (
              <Group grow align="flex-start">
                <TextInput
                  type="time"
                  label={t('adminNotifications.quiet.start')}
                  error={problem('quietStart')}
                  {...form.register('quietStart')}
                />
                <TextInput
                  type="time"
                  label={t('adminNotifications.quiet.end')}
                  error={problem('quietEnd')}
                  {...form.register('quietEnd')}
                />
                <Controller
                  control={form.control}
                  name="timeZone"
                  render={({ field }) => (
                    <Select
                      label={t('adminNotifications.quiet.timeZone')}
                      data={zones}
                      value={field.value}
                      onChange={(value) => value && field.onChange(value)}
                      searchable
                      allowDeselect={false}
                      limit={200}
                      error={problem('timeZone')}
                    />
                  )}
                />
              </Group>
            )}

            <Title order={2} size="h4">
              {t('adminNotifications.hosts.title')}
            </Title>
            <Controller
              control={form.control}
              name="allowedWebhookHosts"
              render={({ field }) => (
                <TagsInput
                  label={t('adminNotifications.hosts.label')}
                  description={t('adminNotifications.hosts.hint')}
                  placeholder={t('adminNotifications.hosts.placeholder')}
                  value={field.value}
                  onChange={field.onChange}
                  splitChars={[',', ' ', ';']}
                  maxTags={SETTINGS_LIMITS.hosts}
                  clearable
                  error={problem('allowedWebhookHosts')}
                  data-testid="allowed-hosts-input"
                />
              )}
            />
            {canUpdate && (
              <Stack gap="sm">
                <FailureAlert failure={failure} testId="settings-failure" />
                <Group justify="flex-end">
                  <Button
                    variant="default"
                    onClick={() => {
                      form.reset(settingsToValues(settings));
                      setProblems([]);
                      setFailure(null);
                    }}
                    disabled={!form.formState.isDirty}
                  >
                    {t('adminNotifications.discard')}
                  </Button>
                  <Button type="submit" loading={save.isPending}>
                    {t('adminNotifications.save')}
                  </Button>
                </Group>
              </Stack>
            )}
          </Stack>
        </Fieldset>
      </form>
    </Card>
  );
}

/** The webhook signing secret: write-only, so only whether one is set is shown; set, replace or remove it. */
function SecretCard({ settings, canUpdate }: { settings: Settings; canUpdate: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);

  const remove = async () => {
    try {
      const saved = await updateSettings(await token(), organization.id, { webhookSecret: null });
      queryClient.setQueryData([SETTINGS_KEY, organization.id], saved);
      notifications.show({ color: 'green', message: t('adminNotifications.secret.removed') });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('adminNotifications.secret.failed'),
        message: failureText(t, error, { 403: t('adminNotifications.errors.forbidden') }).message,
      });
    }
  };

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('adminNotifications.secret.title')}
          </Title>
          <Badge
            color={settings.webhookSecretSet ? 'green' : 'gray'}
            variant="light"
            tt="none"
            data-testid="secret-state"
          >
            {t(
              settings.webhookSecretSet
                ? 'adminNotifications.secret.set'
                : 'adminNotifications.secret.notSet',
            )}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('adminNotifications.secret.hint')}
        </Text>
        {canUpdate && (
          <Group gap="xs">
            <Button variant="light" onClick={() => setEditing(true)} data-testid="secret-edit">
              {t(
                settings.webhookSecretSet
                  ? 'adminNotifications.secret.replace'
                  : 'adminNotifications.secret.add',
              )}
            </Button>
            {settings.webhookSecretSet && (
              <Button
                variant="subtle"
                color="red"
                onClick={() =>
                  confirmDanger({
                    title: t('adminNotifications.secret.removeTitle'),
                    message: t('adminNotifications.secret.removeConfirm'),
                    confirmLabel: t('adminNotifications.secret.remove'),
                    onConfirm: remove,
                  })
                }
              >
                {t('adminNotifications.secret.remove')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <Modal
        opened={editing}
        onClose={() => setEditing(false)}
        title={t(
          settings.webhookSecretSet ? 'adminNotifications.secret.replace' : 'adminNotifications.secret.add',
        )}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing && <SecretForm onClose={() => setEditing(false)} />}
      </Modal>
    </Card>
  );
}

function SecretForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState('');
  const [visible, setVisible] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [failure, setFailure] = useState<FailureText | null>(null);
  const save = useMutation({
    mutationFn: async () => updateSettings(await token(), organization.id, { webhookSecret: secret }),
    onSuccess: (saved) => {
      queryClient.setQueryData([SETTINGS_KEY, organization.id], saved);
      notifications.show({ color: 'green', message: t('adminNotifications.secret.saved') });
      onClose();
    },
    onError: (error) =>
      setFailure(
        failureText(t, error, {
          400: t('adminNotifications.errors.invalid'),
          403: t('adminNotifications.errors.forbidden'),
        }),
      ),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        const found = secretProblem(secret);
        setProblem(
          found
            ? t(`adminNotifications.secret.${found}`, {
                min: SETTINGS_LIMITS.secretMin,
                max: SETTINGS_LIMITS.secretMax,
              })
            : undefined,
        );
        if (!found) save.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('adminNotifications.secret.formHint')}</Text>
        <PasswordInput
          label={t('adminNotifications.secret.label')}
          value={secret}
          onChange={(event) => setSecret(event.currentTarget.value)}
          visible={visible}
          onVisibilityChange={setVisible}
          autoComplete="new-password"
          maxLength={SETTINGS_LIMITS.secretMax}
          error={problem}
          data-autofocus
        />
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setSecret(generateSecret());
              setVisible(true);
            }}
          >
            {t('adminNotifications.secret.generate')}
          </Button>
        </Group>
        <FailureAlert failure={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('adminNotifications.secret.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function describeProblem(t: TFunction, problem: SettingsProblem): string {
  switch (problem.field) {
    case 'sender':
      return t('adminNotifications.validation.sender');
    case 'quietStart':
    case 'quietEnd':
      return problem.kind === 'same'
        ? t('adminNotifications.validation.sameTimes')
        : t('adminNotifications.validation.time');
    case 'timeZone':
      return t('adminNotifications.validation.timeZone');
    case 'allowedWebhookHosts':
      return problem.kind === 'tooMany'
        ? t('adminNotifications.validation.tooManyHosts', { max: SETTINGS_LIMITS.hosts })
        : t('adminNotifications.validation.hosts', { values: problem.values.join(', ') });
    case 'secret':
      return t(`adminNotifications.secret.${problem.kind}`, {
        min: SETTINGS_LIMITS.secretMin,
        max: SETTINGS_LIMITS.secretMax,
      });
  }
}
