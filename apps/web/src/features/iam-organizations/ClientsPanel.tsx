import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import {
  type ClientSecret,
  createClient,
  deleteClient,
  fetchClients,
  regenerateClientSecret,
  type ServiceClient,
} from './api.ts';
import { ModalFooter } from './ModalFooter.tsx';
import { commonFailure, saveFailure } from './messages.ts';
import { NameInput, nameRules } from './NameInput.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import type { ScopedAccess } from './scoped-access.ts';

/** Service-account clients of the organization: machine access with a secret that is shown once. */
export function ClientsPanel({ access }: { access: ScopedAccess }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const org = access.organization.id;
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc', pageSize: 25 });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ client: ServiceClient; secret: ClientSecret }>();
  const canUpdate = access.ability.can('UPDATE', 'organizations');
  const list = useQuery({
    queryKey: ['iam-organizations', org, 'clients', request],
    queryFn: async ({ signal }) => fetchClients(await access.token(), org, request, signal),
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['iam-organizations', org, 'clients'] }),
    [queryClient, org],
  );

  const columns = useMemo<ColumnDef<ServiceClient>[]>(() => {
    const date = (iso: string) =>
      new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(iso),
      );
    const generate = async (client: ServiceClient) => {
      try {
        const secret = await regenerateClientSecret(await access.token(), org, client.id);
        setRevealed({ client, secret });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('iamOrganizations.clients.secretFailed'),
          message: commonFailure(t, error),
        });
      } finally {
        await refresh();
      }
    };
    const askGenerate = (client: ServiceClient) => {
      if (!client.hasSecret) {
        void generate(client);
        return;
      }
      confirmDanger({
        title: t('iamOrganizations.clients.replaceTitle'),
        message: t('iamOrganizations.clients.replaceConfirm', { name: client.name }),
        confirmLabel: t('iamOrganizations.clients.replace'),
        color: 'orange',
        onConfirm: () => generate(client),
      });
    };
    const confirmDelete = (client: ServiceClient) =>
      confirmDanger({
        title: t('iamOrganizations.clients.deleteTitle'),
        message: t('iamOrganizations.clients.deleteConfirm', { name: client.name }),
        confirmLabel: t('iamOrganizations.clients.delete'),
        onConfirm: async () => {
          try {
            await deleteClient(await access.token(), org, client.id);
            notifications.show({
              color: 'green',
              message: t('iamOrganizations.clients.deleted', { name: client.name }),
            });
          } catch (error) {
            notifications.show({
              color: 'red',
              title: t('iamOrganizations.clients.deleteFailed'),
              message: commonFailure(t, error),
            });
          } finally {
            await refresh();
          }
        },
      });
    return [
      {
        id: 'name',
        header: t('iamOrganizations.clients.columns.name'),
        cell: ({ row }) => (
          <Text size="sm" fw={500}>
            {row.original.name}
          </Text>
        ),
      },
      {
        id: 'clientId',
        header: t('iamOrganizations.clients.columns.clientId'),
        enableSorting: false,
        cell: ({ row }) => <Code>{row.original.clientId}</Code>,
      },
      {
        id: 'secret',
        header: t('iamOrganizations.clients.columns.secret'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {row.original.secretCreatedAt
              ? t('iamOrganizations.clients.secretSince', { date: date(row.original.secretCreatedAt) })
              : t('iamOrganizations.clients.noSecret')}
          </Text>
        ),
      },
      actionsColumn(
        t('iamOrganizations.clients.columns.actions'),
        (client) =>
          canUpdate && (
            <>
              <RowAction
                label={t('iamOrganizations.clients.generateLabel', { name: client.name })}
                onClick={() => askGenerate(client)}
              >
                {t('iamOrganizations.clients.generate')}
              </RowAction>
              <RowAction
                danger
                label={t('iamOrganizations.clients.deleteLabel', { name: client.name })}
                onClick={() => confirmDelete(client)}
              >
                {t('iamOrganizations.clients.delete')}
              </RowAction>
            </>
          ),
      ),
    ];
  }, [t, i18n.language, canUpdate, access, org, refresh]);

  return (
    <>
      <DataTable
        label={t('iamOrganizations.clients.table')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={list}
        rowId={(client) => client.id}
        empty={
          <Text size="sm" c="dimmed">
            {canUpdate ? t('iamOrganizations.clients.emptyCreate') : t('iamOrganizations.clients.empty')}
          </Text>
        }
        toolbar={
          canUpdate && <Button onClick={() => setCreating(true)}>{t('iamOrganizations.clients.new')}</Button>
        }
      />
      <CreateClientModal
        opened={creating}
        access={access}
        onClose={() => setCreating(false)}
        onCreated={() => void refresh()}
      />
      <Modal
        opened={revealed !== undefined}
        onClose={() => setRevealed(undefined)}
        title={revealed ? t('iamOrganizations.clients.secretTitle', { name: revealed.client.name }) : ''}
        size="lg"
      >
        {revealed && (
          <Stack gap="sm">
            <SecretReveal
              label={t('iamOrganizations.clients.secretLabel')}
              value={revealed.secret.secret}
              note={t('iamOrganizations.clients.clientIdNote', { clientId: revealed.secret.clientId })}
              testId="client-secret"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRevealed(undefined)}>
                {t('common.close')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

type CreateProps = { opened: boolean; access: ScopedAccess; onClose: () => void; onCreated: () => void };

function CreateClientModal({ opened, access, onClose, onCreated }: CreateProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const { reset } = form;

  useEffect(() => {
    if (opened) {
      reset({ name: '' });
      setFailure(undefined);
    }
  }, [opened, reset]);

  const submit = form.handleSubmit(async ({ name }) => {
    setFailure(undefined);
    try {
      const client = await createClient(await access.token(), access.organization.id, name.trim());
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.clients.created', { name: client.name }),
      });
      onCreated();
      onClose();
    } catch (error) {
      setFailure(saveFailure(t, error));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('iamOrganizations.clients.newTitle')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <NameInput
            label={t('iamOrganizations.clients.name')}
            error={form.formState.errors.name?.message}
            {...form.register('name', nameRules(t))}
          />
          <Text size="xs" c="dimmed">
            {t('iamOrganizations.clients.createHint')}
          </Text>
          <ModalFooter
            failure={failure}
            onCancel={onClose}
            submitLabel={t('iamOrganizations.clients.create')}
            loading={form.formState.isSubmitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
