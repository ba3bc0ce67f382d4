import { Button, FileButton, Group, Progress, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { formatBytes } from '../../../../shared/files/download.ts';
import { describeError } from '../../../../shared/http/describe.ts';
import { showEditorMessage } from '../../../../shared/ui/editor-messages.ts';
import { AssetStorageUsage, assetStorageKey } from '../AssetStorageUsage.tsx';
import { fetchAssets, fetchGalleryManifest, fetchUploadUrl, putWithProgress } from '../api.ts';
import { EDITOR_QUERY_KEY } from '../query-keys.ts';
import { assetNameOf } from './page-settings.ts';

type Source = 'dashboard' | 'gallery';

type Props = {
  /** The saved dashboard; a new one has no assets until it is saved. */
  dashboardId: string | undefined;
  source: Source;
  asset: string;
  onChange: (choice: { source: Source; asset: string }) => void;
};

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml';
const MAX_BYTES = 10 * 1024 * 1024;

/** The image of an image widget: an asset of the dashboard (uploaded here, with progress) or of the organization's gallery. */
export function ImageAssetField({ dashboardId, source, asset, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const assetsKey = [EDITOR_QUERY_KEY, organization.id, dashboardId, 'assets'];
  const assets = useQuery({
    queryKey: assetsKey,
    queryFn: async ({ signal }) => fetchAssets(await token(), dashboardId ?? '', signal),
    enabled: source === 'dashboard' && dashboardId !== undefined,
  });
  const gallery = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'gallery'],
    queryFn: async ({ signal }) => fetchGalleryManifest(await token(), signal),
    enabled: source === 'gallery',
  });
  const names = useMemo(() => {
    const list =
      source === 'dashboard'
        ? (assets.data ?? []).map((item) => item.name)
        : (gallery.data?.assets ?? []).map((item) => item.name);
    if (asset && !list.includes(asset)) list.push(asset);
    return list;
  }, [source, assets.data, gallery.data, asset]);
  const listing = source === 'dashboard' ? assets : gallery;

  const upload = async (file: File | null) => {
    if (!file || !dashboardId) return;
    if (file.size > MAX_BYTES) {
      showEditorMessage({
        color: 'red',
        message: t('dashboardEditor.image.tooLarge', {
          max: formatBytes(MAX_BYTES, i18n.language, { base: 1024 }),
        }),
      });
      return;
    }
    const name = assetNameOf(file.name);
    setProgress(0);
    try {
      const bearerToken = await token();
      const { url } = await fetchUploadUrl(bearerToken, dashboardId, name);
      await putWithProgress(url, bearerToken, file, setProgress);
      await queryClient.invalidateQueries({ queryKey: assetsKey });
      void queryClient.invalidateQueries({ queryKey: assetStorageKey(organization.id) });
      onChange({ source: 'dashboard', asset: name });
      showEditorMessage({ color: 'green', message: t('dashboardEditor.image.uploaded', { name }) });
    } catch (error) {
      showEditorMessage({
        color: 'red',
        title: t('dashboardEditor.image.uploadFailed'),
        message: describeError(t, error),
      });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Stack gap="xs" data-testid="image-asset-field">
      <SegmentedControl
        size="xs"
        value={source}
        onChange={(next) => onChange({ source: next as Source, asset: '' })}
        data={[
          { value: 'dashboard', label: t('dashboardEditor.image.dashboard') },
          { value: 'gallery', label: t('dashboardEditor.image.gallery') },
        ]}
        aria-label={t('dashboardEditor.image.source')}
      />
      <Select
        size="xs"
        label={t('dashboardEditor.image.asset')}
        data={names}
        value={asset || null}
        onChange={(name) => name && onChange({ source, asset: name })}
        placeholder={listing.isFetching ? t('common.loading') : t('dashboardEditor.image.choose')}
        nothingFoundMessage={t('dashboardEditor.image.none')}
        error={listing.isError ? describeError(t, listing.error) : undefined}
        searchable
        data-testid="image-asset"
        comboboxProps={{ withinPortal: true }}
      />
      {source === 'dashboard' &&
        (dashboardId ? (
          <Group gap="xs">
            <FileButton onChange={(file) => void upload(file)} accept={ACCEPT}>
              {(buttonProps) => (
                <Button
                  {...buttonProps}
                  size="xs"
                  variant="light"
                  loading={progress !== null}
                  data-testid="image-upload"
                >
                  {t('dashboardEditor.image.upload')}
                </Button>
              )}
            </FileButton>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {t('dashboardEditor.image.saveFirst')}
          </Text>
        ))}
      {source === 'dashboard' && <AssetStorageUsage />}
      {progress !== null && (
        <Progress
          value={Math.round(progress * 100)}
          size="sm"
          aria-label={t('dashboardEditor.image.progress', { percent: Math.round(progress * 100) })}
          data-testid="image-upload-progress"
        />
      )}
    </Stack>
  );
}
