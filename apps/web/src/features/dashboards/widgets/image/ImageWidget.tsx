import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { hasStatus } from '../../../../shared/http/errors.ts';
import { fetchAssetBlob } from '../../api.ts';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';

/**
 * An asset of the dashboard or of the organization's gallery, fetched with the caller's token and shown from a blob
 * address (an <img>: an SVG asset cannot run script there). The alt text is the widget's.
 */
export function ImageWidget({ widget, runtime }: WidgetPropsOf<'image'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const { asset, source, fit, alt } = widget.options;
  const url = asset ? runtime.assetUrl(source, asset) : '';
  const image = useQuery({
    queryKey: ['dashboard-asset', organization.id, url],
    queryFn: async ({ signal }) => fetchAssetBlob(await token(), url, signal),
    enabled: url !== '',
    staleTime: 5 * 60_000,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 403) && count < 2,
  });
  const objectUrl = useMemo(() => (image.data ? URL.createObjectURL(image.data) : undefined), [image.data]);
  useEffect(() => () => (objectUrl ? URL.revokeObjectURL(objectUrl) : undefined), [objectUrl]);

  if (!asset) return <Placeholder message={t('dashboardWidgets.image.none')} />;
  if (image.isError) {
    return (
      <Placeholder
        message={t(
          hasStatus(image.error, 404) ? 'dashboardWidgets.image.missing' : 'dashboardWidgets.image.failed',
          {
            name: asset,
          },
        )}
      />
    );
  }
  if (!objectUrl) return <Placeholder loading message={t('common.loading')} />;
  return (
    <Box h="100%">
      <img
        src={objectUrl}
        alt={alt ?? ''}
        style={{ width: '100%', height: '100%', objectFit: fit, display: 'block' }}
        data-testid="widget-image"
        data-asset={asset}
      />
    </Box>
  );
}
