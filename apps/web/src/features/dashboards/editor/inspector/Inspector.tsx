import type { DashboardDocument, DeviceSlot, Page, Variable, Widget } from '@edgeport/dashboard-schema';
import { Stack, Text, Title } from '@mantine/core';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isFeatureEnabled } from '../../../experimental/flags.ts';
import type { ListChange } from '../../model/types.ts';
import { PageInspector } from './PageInspector.tsx';
import { WidgetInspector } from './WidgetInspector.tsx';

type Props = {
  document: DashboardDocument;
  page: Page;
  selected: readonly Widget[];
  dashboardId: string | undefined;
  showJson: boolean;
  onUpdateWidget: (base: Widget, next: Widget) => void;
  onRenamePage: (title: string) => void;
  onSlots: (slots: ListChange<DeviceSlot>) => void;
  onVariables: (variables: ListChange<Variable>) => void;
};

/**
 * Right column: the selected widget's settings, the page's when nothing is selected, a summary for several. Memoized:
 * the editor renders it only when what it inspects changed.
 */
export const Inspector = memo(function Inspector(props: Props) {
  const { t } = useTranslation();
  const [only] = props.selected;
  // Experimental fields of the widget inspector, read once per editor (spec 3 flags).
  const [formulaMapping] = useState(() => isFeatureEnabled('formulaMapping'));
  const [widgetPermissions] = useState(() => isFeatureEnabled('widgetPermissions'));
  return (
    <Stack
      gap="sm"
      component="section"
      aria-label={t('dashboardEditor.inspector.region')}
      data-testid="editor-inspector"
    >
      {props.selected.length === 0 && (
        <PageInspector
          document={props.document}
          page={props.page}
          onRenamePage={props.onRenamePage}
          onSlots={props.onSlots}
          onVariables={props.onVariables}
        />
      )}
      {props.selected.length === 1 && only && (
        <WidgetInspector
          key={only.id}
          widget={only}
          document={props.document}
          dashboardId={props.dashboardId}
          showJson={props.showJson}
          formulaMapping={formulaMapping}
          widgetPermissions={widgetPermissions}
          onUpdate={props.onUpdateWidget}
        />
      )}
      {props.selected.length > 1 && (
        <Stack gap="xs" data-testid="multi-inspector">
          <Title order={3} size="h6">
            {t('dashboardEditor.inspector.multi', { count: props.selected.length })}
          </Title>
          <Text size="sm" c="dimmed">
            {t('dashboardEditor.inspector.multiHint')}
          </Text>
        </Stack>
      )}
    </Stack>
  );
});
