import { Alert, Button, Modal, Paper, Group as Row, Select, Stack, TagsInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { type BulkRequest, bulkDevices, fetchGroupOptions, fetchTagCounts } from './api.ts';
import { parseTags } from './format.ts';
import { deviceFailure } from './messages.ts';
import { DEVICE_GROUPS_KEY, DEVICES_KEY } from './query-keys.ts';

type Mode = 'addTags' | 'removeTags' | 'setGroup';

/**
 * What can be done to the selected devices at once: add or remove labelling tags, add them to a device group, delete
 * them (after a confirmation). Each button shows only with the permission its call needs.
 */
export function BulkBar({
  selected,
  onDone,
}: {
  selected: ReadonlySet<string>;
  onDone: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode | null>(null);
  const canUpdate = ability.can('UPDATE', 'devices');
  const canDelete = ability.can('DELETE', 'devices');
  const canGroup = canUpdate && ability.can('UPDATE', 'devicegroups') && ability.can('READ', 'devicegroups');
  const ids = [...selected];

  const run = useMutation({
    mutationFn: async (request: BulkRequest) => bulkDevices(await token(), organization.id, request),
    onSuccess: async (result, request) => {
      notifications.show({
        color: 'green',
        message: t(`devices.bulk.done.${request.action}`, {
          count: result.changed,
          requested: result.requested,
        }),
      });
      setMode(null);
      onDone(request.action !== 'delete');
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('devices.bulk.failed'),
        message: deviceFailure(t, 'bulk', error),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [DEVICE_GROUPS_KEY, organization.id] });
    },
  });

  const confirmDelete = () =>
    confirmDanger({
      title: t('devices.bulk.deleteTitle', { count: ids.length }),
      message: t('devices.bulk.deleteConfirm', { count: ids.length }),
      confirmLabel: t('devices.bulk.delete'),
      onConfirm: () => run.mutateAsync({ action: 'delete', ids }).catch(() => undefined),
    });

  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Row justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500} aria-live="polite">
          {t('devices.bulk.selected', { count: ids.length })}
        </Text>
        <Row gap="xs">
          {canUpdate && (
            <Button size="xs" variant="light" onClick={() => setMode('addTags')}>
              {t('devices.bulk.addTags')}
            </Button>
          )}
          {canUpdate && (
            <Button size="xs" variant="light" onClick={() => setMode('removeTags')}>
              {t('devices.bulk.removeTags')}
            </Button>
          )}
          {canGroup && (
            <Button size="xs" variant="light" onClick={() => setMode('setGroup')}>
              {t('devices.bulk.setGroup')}
            </Button>
          )}
          {canDelete && (
            <Button size="xs" variant="light" color="red" onClick={confirmDelete} loading={run.isPending}>
              {t('devices.bulk.delete')}
            </Button>
          )}
          <Button size="xs" variant="subtle" onClick={() => onDone(false)}>
            {t('devices.bulk.clear')}
          </Button>
        </Row>
      </Row>
      <BulkModal
        mode={mode}
        count={ids.length}
        pending={run.isPending}
        onClose={() => setMode(null)}
        onSubmit={(input) => {
          if (input.mode === 'setGroup') run.mutate({ action: 'setGroup', ids, groupId: input.groupId });
          else run.mutate({ action: input.mode, ids, tags: input.tags });
        }}
      />
    </Paper>
  );
}

type BulkInput = { mode: 'addTags' | 'removeTags'; tags: string[] } | { mode: 'setGroup'; groupId: string };

function BulkModal({
  mode,
  count,
  pending,
  onClose,
  onSubmit,
}: {
  mode: Mode | null;
  count: number;
  pending: boolean;
  onClose: () => void;
  onSubmit: (input: BulkInput) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [tags, setTags] = useState<string[]>([]);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const tagCounts = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'tags'],
    queryFn: async ({ signal }) => fetchTagCounts(await token(), organization.id, signal),
    enabled: mode === 'addTags' || mode === 'removeTags',
    staleTime: 60_000,
  });
  const groups = useQuery({
    queryKey: [DEVICE_GROUPS_KEY, organization.id, 'options'],
    queryFn: async ({ signal }) => fetchGroupOptions(await token(), organization.id, signal),
    enabled: mode === 'setGroup',
  });

  const close = () => {
    setTags([]);
    setGroupId(null);
    setProblem(null);
    onClose();
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (mode === 'setGroup') {
      if (!groupId) return setProblem(t('devices.bulk.chooseGroup'));
      onSubmit({ mode, groupId });
    } else if (mode) {
      const cleaned = parseTags(tags);
      if (cleaned.length === 0) return setProblem(t('devices.bulk.enterTag'));
      onSubmit({ mode, tags: cleaned });
    }
    setTags([]);
    setGroupId(null);
    setProblem(null);
  };

  return (
    <Modal
      opened={mode !== null}
      onClose={close}
      title={mode ? t(`devices.bulk.title.${mode}`, { count }) : ''}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="bulk-form">
        <Stack gap="sm">
          {mode === 'setGroup' ? (
            groups.isError ? (
              <Alert color="red">{deviceFailure(t, 'group', groups.error)}</Alert>
            ) : (
              <Select
                label={t('devices.bulk.group')}
                data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
                value={groupId}
                onChange={setGroupId}
                searchable
                nothingFoundMessage={t('devices.bulk.noGroups')}
                error={problem}
                data-autofocus
              />
            )
          ) : (
            <TagsInput
              label={t('devices.bulk.tags')}
              description={t('devices.bulk.tagsHint')}
              data={(tagCounts.data?.items ?? []).map((entry) => entry.tag)}
              value={tags}
              onChange={setTags}
              maxTags={50}
              error={problem}
              data-autofocus
            />
          )}
          <Row justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {mode ? t(`devices.bulk.apply.${mode}`) : ''}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
