import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import { LoadFailed } from '../../../shared/ui/LoadFailed.tsx';
import {
  type Collection,
  collectionKeys,
  type Dashboard,
  fetchOne,
  shareWith,
} from '../../dashboards/api.ts';
import { fetchOrganizationUsers, type OrganizationUser } from '../api.ts';
import { levelOf, type ShareChoice, shareChanges } from '../logic.ts';
import { flowsFailure } from '../messages.ts';

const CHOICES: readonly ShareChoice[] = ['none', 'r', 'r/w'];
const CHOICE_KEY: Record<ShareChoice, string> = { none: 'none', r: 'read', 'r/w': 'readWrite' };

/**
 * Share a dashboard, flow or widget (owners, spec 4): every member of the organization with a level — none, read or
 * read-write. Saving sends the users whose level changed in one list call; those set to none lose both.
 */
export function ShareDialog({
  collection,
  item,
  onClose,
}: {
  collection: Collection;
  item: Dashboard | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      size="lg"
      title={item ? t('flows.share.title', { name: item.name }) : ''}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {item && <ShareForm collection={collection} item={item} onClose={onClose} />}
    </Modal>
  );
}

function ShareForm({
  collection,
  item,
  onClose,
}: {
  collection: Collection;
  item: Dashboard;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const [choices, setChoices] = useState<Map<string, ShareChoice>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);

  const fresh = useQuery({
    queryKey: collectionKeys.one(organization.id, collection, item.id),
    queryFn: async ({ signal }) => fetchOne(await token(), collection, item.id, signal),
    initialData: item,
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const users = useQuery({
    queryKey: collectionKeys.users(organization.id),
    queryFn: async ({ signal }) => fetchOrganizationUsers(await token(), organization.id, signal),
    staleTime: 60_000,
  });
  const shares = fresh.data;

  const candidates = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (users.data ?? [])
      .filter((user) => user.id !== shares.ownerId)
      .filter(
        (user) =>
          !needle ||
          user.email.toLowerCase().includes(needle) ||
          `${user.firstName} ${user.lastName}`.toLowerCase().includes(needle),
      );
  }, [users.data, filter, shares.ownerId]);

  const choiceOf = (user: OrganizationUser): ShareChoice => choices.get(user.id) ?? levelOf(shares, user.id);
  const pending = shareChanges(shares, choices);

  const save = useMutation({
    mutationFn: async () => shareWith(await token(), collection, item.id, pending),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('flows.share.saved', { name: item.name }) });
      await queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
      onClose();
    },
    onError: (error) => setFailure(flowsFailure(t, error)),
  });

  const usersFailure = users.error
    ? hasStatus(users.error, 403)
      ? t('flows.share.usersForbidden')
      : flowsFailure(t, users.error)
    : null;

  return (
    <Stack gap="sm" data-testid="share-dialog">
      <Text size="sm" c="dimmed">
        {t('flows.share.intro')}
      </Text>
      <Group gap="xs">
        <Badge variant="light" tt="none" data-testid="share-readers">
          {t('flows.share.readers', { count: shares.readers.length })}
        </Badge>
        <Badge variant="light" color="teal" tt="none" data-testid="share-editors">
          {t('flows.share.editors', { count: shares.editors.length })}
        </Badge>
      </Group>
      <TextInput
        aria-label={t('flows.share.filter')}
        placeholder={t('flows.share.filter')}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
      />
      {users.isPending ? (
        <Center p="md">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Center>
      ) : usersFailure ? (
        <LoadFailed
          title={t('flows.share.usersFailed')}
          message={usersFailure}
          onRetry={() => void users.refetch()}
        />
      ) : candidates.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" p="md" data-testid="share-empty">
          {filter ? t('flows.share.noMatch') : t('flows.share.nobody')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah="50vh">
          <Table aria-label={t('flows.share.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('flows.share.user')}</Table.Th>
                <Table.Th>{t('flows.share.level')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {candidates.map((user) => {
                const name = `${user.firstName} ${user.lastName}`.trim();
                return (
                  <Table.Tr key={user.id} data-testid="share-user" data-user-id={user.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {user.email}
                      </Text>
                      {name && (
                        <Text size="xs" c="dimmed">
                          {name}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <SegmentedControl
                        size="xs"
                        aria-label={t('flows.share.levelOf', { email: user.email })}
                        value={choiceOf(user)}
                        onChange={(value) =>
                          setChoices((current) => new Map(current).set(user.id, value as ShareChoice))
                        }
                        data={CHOICES.map((choice) => ({
                          value: choice,
                          label: t(`flows.share.levels.${CHOICE_KEY[choice]}`),
                        }))}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('flows.share.changes', { count: pending.length })}
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            data-testid="share-save"
            disabled={pending.length === 0}
            loading={save.isPending}
            onClick={() => {
              setFailure(null);
              save.mutate();
            }}
          >
            {t('flows.share.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
