import type { WidgetType } from '@edgeport/dashboard-schema';
import { Button, Loader, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { showEditorMessage } from '../../../shared/ui/editor-messages.ts';
import { isFeatureEnabled } from '../../experimental/flags.ts';
import type { ClipboardPayload } from '../model/types.ts';
import { availablePalette, widgetLabelKey } from '../widgets/palette.ts';
import { WidgetIcon } from '../widgets/WidgetIcon.tsx';
import { fetchSavedWidgetDocument, fetchSavedWidgets } from './api.ts';
import classes from './editor.module.css';
import { GalleryWidgets } from './GalleryWidgets.tsx';
import { EDITOR_QUERY_KEY } from './query-keys.ts';
import { savedWidgetPayload } from './saved-widgets.ts';

type Props = {
  onAdd: (type: WidgetType) => void;
  onInsert: (payload: ClipboardPayload) => void;
};

/**
 * Left column: every widget type to add (click or Enter), then the organization's saved widgets and gallery widgets.
 * Memoized: it renders again only when its handlers change.
 */
export const Palette = memo(function Palette({ onAdd, onInsert }: Props) {
  const { t } = useTranslation();
  const [types] = useState(() =>
    availablePalette((flag) => isFeatureEnabled(flag)).map((entry) => entry.type),
  );
  return (
    <Stack gap={6} data-testid="editor-palette" component="section" aria-labelledby="editor-palette-title">
      <Title order={3} size="h6" id="editor-palette-title">
        {t('dashboardEditor.palette.title')}
      </Title>
      <ul className={classes.palette}>
        {types.map((type) => (
          <li key={type}>
            <UnstyledButton
              className={classes.paletteItem}
              data-testid={`palette-item-${type}`}
              onClick={() => onAdd(type)}
              aria-label={t('dashboardEditor.palette.add', { type: t(widgetLabelKey(type)) })}
            >
              <WidgetIcon type={type} size={16} />
              <span>{t(widgetLabelKey(type))}</span>
            </UnstyledButton>
          </li>
        ))}
      </ul>
      <SavedWidgets onInsert={onInsert} />
      <GalleryWidgets onInsert={onInsert} />
    </Stack>
  );
});

function SavedWidgets({ onInsert }: Pick<Props, 'onInsert'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [inserting, setInserting] = useState<string | null>(null);
  const saved = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'saved-widgets'],
    queryFn: async ({ signal }) => fetchSavedWidgets(await token(), signal),
  });

  const insert = async (id: string, version: number) => {
    setInserting(id);
    try {
      onInsert(savedWidgetPayload(await fetchSavedWidgetDocument(await token(), id, version)));
    } catch (error) {
      showEditorMessage({
        color: 'red',
        title: t('dashboardEditor.palette.savedFailed'),
        message: describeError(t, error),
      });
    } finally {
      setInserting(null);
    }
  };

  return (
    <Stack gap={4} mt="sm" data-testid="editor-saved-widgets">
      <Title order={3} size="h6">
        {t('dashboardEditor.palette.saved')}
      </Title>
      {saved.isPending && <Loader size="xs" aria-label={t('common.loading')} />}
      {saved.isError && (
        <Text size="xs" c="dimmed">
          {t('dashboardEditor.palette.savedUnavailable')}
        </Text>
      )}
      {saved.data?.items.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('dashboardEditor.palette.savedEmpty')}
        </Text>
      )}
      {saved.data?.items.map((item) => (
        <Button
          key={item.id}
          size="compact-xs"
          variant="subtle"
          justify="flex-start"
          loading={inserting === item.id}
          onClick={() => void insert(item.id, item.currentVersion)}
        >
          {item.name}
        </Button>
      ))}
    </Stack>
  );
}
