import {
  Alert,
  Button,
  Code,
  CopyButton,
  Loader,
  Group as Row,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { currentLocale } from '../../shared/i18n/i18n.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import {
  type ApiKey,
  type CreatedApiKey,
  createApiKey,
  deleteApiKey,
  fetchApiKeys,
  type User,
} from './api.ts';
import { endOfDayIso, localDateInput, userFailure } from './messages.ts';

type Values = { name: string; expires: string };

function formatDate(value: string | null, fallback: string): string {
  if (!value) return fallback;
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  );
}

/** The user's personal API keys in this organization: list, create (secret shown once), delete. */
export function UserApiKeys({ user, self }: { user: User; self: boolean }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canManage = self || ability.can('UPDATE', 'users');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const queryKey = ['iam-users', organization.id, 'api-keys', user.email];
  const form = useForm<Values>({ defaultValues: { name: '', expires: '' } });

  const keys = useQuery({
    queryKey,
    queryFn: async ({ signal }) => fetchApiKeys(await token(), organization.id, user.email, signal),
  });

  const create = useMutation({
    mutationFn: async (values: Values) => {
      const expiresAt = endOfDayIso(values.expires);
      return createApiKey(await token(), organization.id, {
        name: values.name.trim(),
        username: user.email,
        ...(expiresAt ? { expiresAt } : {}),
      });
    },
    onSuccess: async (key) => {
      setCreated(key);
      form.reset();
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => setFailure(userFailure(t, 'apiKey', error)),
  });

  const remove = async (key: ApiKey) => {
    try {
      await deleteApiKey(await token(), organization.id, key.id);
      notifications.show({ color: 'green', message: t('iamUsers.apiKeys.deleted', { name: key.name }) });
      if (created?.id === key.id) setCreated(null);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('iamUsers.apiKeys.deleteFailed'),
        message: userFailure(t, 'apiKeyDelete', error),
      });
    } finally {
      await queryClient.invalidateQueries({ queryKey });
    }
  };
  const confirmDelete = (key: ApiKey) =>
    confirmDanger({
      title: t('iamUsers.apiKeys.deleteTitle'),
      message: t('iamUsers.apiKeys.deleteConfirm', { name: key.name, prefix: key.prefix }),
      confirmLabel: t('iamUsers.apiKeys.deleteAction'),
      onConfirm: () => remove(key),
    });

  const today = localDateInput(new Date());

  return (
    <Stack gap="md" data-testid="user-api-keys">
      <Text size="sm" c="dimmed">
        {t('iamUsers.apiKeys.hint', { organization: organization.name })}
      </Text>
      {created && (
        <Stack gap="sm" data-testid="api-key-created">
          <Alert color="yellow" title={t('iamUsers.apiKeys.createdTitle', { name: created.name })}>
            <Text size="sm">{t('iamUsers.apiKeys.onlyOnce')}</Text>
          </Alert>
          <Code
            block
            data-testid="api-key-secret"
            aria-label={t('iamUsers.apiKeys.secret')}
            style={{ wordBreak: 'break-all' }}
          >
            {created.secret}
          </Code>
          <Row justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? t('iamUsers.apiKeys.copied') : t('iamUsers.apiKeys.copy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={() => setCreated(null)}>
              {t('iamUsers.apiKeys.done')}
            </Button>
          </Row>
        </Stack>
      )}
      {keys.isPending && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {keys.isError && (
        <LoadFailed
          title={t('iamUsers.apiKeys.loadFailed')}
          message={describeError(t, keys.error)}
          onRetry={() => void keys.refetch()}
        />
      )}
      {keys.data &&
        (keys.data.length === 0 ? (
          <Text size="sm" data-testid="api-keys-empty">
            {t('iamUsers.apiKeys.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table aria-label={t('iamUsers.apiKeys.tableLabel', { email: user.email })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('iamUsers.apiKeys.name')}</Table.Th>
                  <Table.Th>{t('iamUsers.apiKeys.prefix')}</Table.Th>
                  <Table.Th>{t('iamUsers.apiKeys.created')}</Table.Th>
                  <Table.Th>{t('iamUsers.apiKeys.expires')}</Table.Th>
                  <Table.Th>{t('iamUsers.apiKeys.lastUsed')}</Table.Th>
                  {canManage && <Table.Th aria-label={t('iamUsers.columns.actions')} />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((key) => (
                  <Table.Tr key={key.id}>
                    <Table.Td>{key.name}</Table.Td>
                    <Table.Td>
                      <Code>{key.prefix}…</Code>
                    </Table.Td>
                    <Table.Td>{formatDate(key.createdAt, '')}</Table.Td>
                    <Table.Td>{formatDate(key.expiresAt, t('iamUsers.apiKeys.never'))}</Table.Td>
                    <Table.Td>{formatDate(key.lastUsedAt, t('iamUsers.apiKeys.notUsed'))}</Table.Td>
                    {canManage && (
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => confirmDelete(key)}
                          aria-label={t('iamUsers.apiKeys.delete', { name: key.name })}
                        >
                          {t('iamUsers.apiKeys.deleteShort')}
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ))}
      {canManage && (
        <form
          noValidate
          data-testid="api-key-form"
          onSubmit={form.handleSubmit((values) => {
            setFailure(null);
            create.mutate(values);
          })}
        >
          <Stack gap="sm">
            <Text fw={500}>{t('iamUsers.apiKeys.createTitle')}</Text>
            <Row align="flex-start" grow>
              <TextInput
                label={t('iamUsers.apiKeys.name')}
                required
                maxLength={80}
                error={form.formState.errors.name?.message}
                {...form.register('name', {
                  validate: (value) => value.trim().length > 0 || t('iamUsers.apiKeys.nameRequired'),
                })}
              />
              <TextInput
                label={t('iamUsers.apiKeys.expiresOn')}
                description={t('iamUsers.apiKeys.expiresHint')}
                type="date"
                min={today}
                error={form.formState.errors.expires?.message}
                {...form.register('expires', {
                  validate: (value) => !value || value >= today || t('iamUsers.apiKeys.expiresPast'),
                })}
              />
            </Row>
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <Row justify="flex-end">
              <Button type="submit" loading={create.isPending}>
                {t('iamUsers.apiKeys.create')}
              </Button>
            </Row>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
