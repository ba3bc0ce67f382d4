import {
  type DashboardDocument,
  GRID_COLUMNS,
  GRID_ROW_HEIGHT,
  type Widget,
} from '@edgeport/dashboard-schema';
import { Text } from '@mantine/core';
import { type CSSProperties, memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetRuntime } from '../widgets/types.ts';
import { WidgetView } from '../widgets/WidgetView.tsx';
import { type DashboardAccess, visibleWidgets } from './visibility.ts';

/** Space between widgets and around each grid, in pixels: the editor's react-grid-layout margin, so both look alike. */
export const VIEW_GRID_GAP = 8;

export type DashboardGridProps = {
  document: DashboardDocument;
  pageId: string;
  runtime: WidgetRuntime;
  /** The caller's access: readers ('r') do not see widgets meant for editors (widgetPermissions). Absent: 'owner'. */
  access?: DashboardAccess;
};

function gridStyle(): CSSProperties {
  return {
    display: 'grid',
    gridTemplateColumns: `repeat(${GRID_COLUMNS}, minmax(0, 1fr))`,
    gridAutoRows: `${GRID_ROW_HEIGHT}px`,
    gap: VIEW_GRID_GAP,
    padding: VIEW_GRID_GAP,
  };
}

function cellStyle(widget: Widget): CSSProperties {
  const { x, y, w, h } = widget.layout;
  return {
    gridColumn: `${x + 1} / span ${Math.min(w, GRID_COLUMNS - x)}`,
    gridRow: `${y + 1} / span ${h}`,
    minWidth: 0,
    minHeight: 0,
  };
}

/** Children by parent (undefined: the page's top level), in document order. */
function byParent(widgets: readonly Widget[]): Map<string | undefined, Widget[]> {
  const groups = new Map<string | undefined, Widget[]>();
  for (const widget of widgets) {
    const list = groups.get(widget.parentId) ?? [];
    list.push(widget);
    groups.set(widget.parentId, list);
  }
  return groups;
}

const Cells = memo(function Cells({
  widgets,
  tree,
  runtime,
}: {
  widgets: readonly Widget[];
  tree: Map<string | undefined, Widget[]>;
  runtime: WidgetRuntime;
}) {
  return (
    <div style={gridStyle()}>
      {widgets.map((widget) => (
        <div key={widget.id} style={cellStyle(widget)}>
          {widget.type === 'group' ? (
            <WidgetView widget={widget} runtime={runtime}>
              <Cells widgets={tree.get(widget.id) ?? []} tree={tree} runtime={runtime} />
            </WidgetView>
          ) : (
            <WidgetView widget={widget} runtime={runtime} />
          )}
        </div>
      ))}
    </div>
  );
});

/**
 * One page of a dashboard, read-only: a CSS grid of GRID_COLUMNS columns and rows of GRID_ROW_HEIGHT pixels laid out
 * by the widgets' layouts (a group's children on a grid of their own inside it). The grid renders again only when the
 * document, the page, the runtime or the caller's access change; values reach each widget through its own
 * subscription. Widgets `visibleTo: 'editors'` are left out for readers. The flow viewer embeds it too.
 */
export function DashboardGrid({ document, pageId, runtime, access = 'owner' }: DashboardGridProps) {
  const { t } = useTranslation();
  const page =
    document.pages.find((candidate) => candidate.id === pageId) ??
    document.pages.find((candidate) => candidate.id === document.rootPageId);
  // Presentation only (see visibility.ts): a reader is spared the widgets meant for editors.
  const shown = useMemo(() => visibleWidgets(page?.widgets ?? [], access), [page, access]);
  const tree = useMemo(() => byParent(shown), [shown]);
  const top = tree.get(undefined) ?? [];
  if (!page || shown.length === 0) {
    return (
      <Text c="dimmed" ta="center" p="xl" data-testid="dashboard-page-empty">
        {t('dashboardViewer.emptyPage')}
      </Text>
    );
  }
  return (
    <div data-testid="dashboard-grid" data-page-id={page.id}>
      <Cells widgets={top} tree={tree} runtime={runtime} />
    </div>
  );
}
