import { Button, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { showEditorMessage } from '../../../shared/ui/editor-messages.ts';
import { fetchGalleryWidgets } from '../api.ts';
import type { ClipboardPayload } from '../model/types.ts';
import { galleryWidgetPayload } from './gallery-widgets.ts';
import { EDITOR_QUERY_KEY } from './query-keys.ts';

type Props = { onInsert: (payload: ClipboardPayload) => void };

/** The palette's "Gallery": the widgets of the organization's gallery manifests; click or Enter inserts one (a paste). */
export function GalleryWidgets({ onInsert }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const gallery = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'gallery-widgets'],
    queryFn: async ({ signal }) => fetchGalleryWidgets(await token(), signal),
  });

  const insert = (name: string, document: unknown) => {
    const read = galleryWidgetPayload(document);
    if (read.ok) onInsert(read.payload);
    else {
      showEditorMessage({
        color: 'red',
        title: t('dashboardEditor.palette.galleryFailed', { name }),
        message: read.errors.slice(0, 3).join('; '),
      });
    }
  };

  return (
    <Stack
      gap={4}
      mt="sm"
      data-testid="editor-gallery-widgets"
      component="section"
      aria-labelledby="editor-gallery-title"
    >
      <Title order={3} size="h6" id="editor-gallery-title">
        {t('dashboardEditor.palette.gallery')}
      </Title>
      {gallery.isPending && <Loader size="xs" aria-label={t('common.loading')} />}
      {gallery.isError && (
        <Stack gap={2} align="flex-start" role="alert">
          <Text size="xs" c="red">
            {t('dashboardEditor.palette.galleryUnavailable')} {describeError(t, gallery.error)}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => void gallery.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      )}
      {gallery.data?.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('dashboardEditor.palette.galleryEmpty')}
        </Text>
      )}
      {gallery.data?.map((item, index) => (
        <Tooltip
          // biome-ignore lint/suspicious/noArrayIndexKey: a manifest may repeat a name; the list is replaced whole.
          key={`${item.asset}/${item.name}/${index}`}
          label={item.description}
          disabled={!item.description}
          position="right"
          multiline
          w={240}
        >
          <Button
            size="compact-xs"
            variant="subtle"
            justify="flex-start"
            onClick={() => insert(item.name, item.document)}
            aria-description={item.description || undefined}
            data-testid="gallery-widget"
          >
            {item.name}
          </Button>
        </Tooltip>
      ))}
    </Stack>
  );
}
