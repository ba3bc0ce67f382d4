import { Group, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { formatBytes } from '../../../shared/files/download.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { fetchAssetStorage } from '../api.ts';
import { storageShare } from './asset-storage.ts';
import { EDITOR_QUERY_KEY } from './query-keys.ts';

/** The query key of the organization's asset storage use (uploads invalidate it). */
export function assetStorageKey(organizationId: string) {
  return [EDITOR_QUERY_KEY, organizationId, 'asset-storage'];
}

/** How much of the organization's asset storage is used: "1.2 MB of 100 MB" with a bar. */
export function AssetStorageUsage() {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const storage = useQuery({
    queryKey: assetStorageKey(organization.id),
    queryFn: async ({ signal }) => fetchAssetStorage(await token(), signal),
  });
  if (storage.isPending) {
    return (
      <Text size="xs" c="dimmed" data-testid="asset-storage">
        {t('common.loading')}
      </Text>
    );
  }
  if (storage.isError) {
    return (
      <Text size="xs" c="red" data-testid="asset-storage">
        {t('dashboardEditor.image.storageFailed')} {describeError(t, storage.error)}
      </Text>
    );
  }
  const { usedBytes, limitBytes } = storage.data;
  const share = storageShare(usedBytes, limitBytes);
  const label = t('dashboardEditor.image.storage', {
    used: formatBytes(usedBytes, i18n.language),
    limit: formatBytes(limitBytes, i18n.language),
  });
  return (
    <Stack gap={2} data-testid="asset-storage">
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      </Group>
      <Progress
        value={share}
        size="xs"
        color={share >= 90 ? 'red' : share >= 75 ? 'orange' : 'blue'}
        aria-label={label}
      />
    </Stack>
  );
}
