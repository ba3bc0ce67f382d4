import 'react-grid-layout/css/styles.css';
import { GRID_COLUMNS, GRID_ROW_HEIGHT, type Layout, type Widget } from '@edgeport/dashboard-schema';
import { Badge, Text } from '@mantine/core';
import { type KeyboardEvent, type MouseEvent, memo, useMemo, useRef } from 'react';
import GridLayout, { type EventCallback, noCompactor, useContainerWidth } from 'react-grid-layout';
import { useTranslation } from 'react-i18next';
import { widgetLabelKey } from '../widgets/palette.ts';
import type { WidgetRuntime } from '../widgets/types.ts';
import { WidgetView } from '../widgets/WidgetView.tsx';
import { clampLayout, clickSelection, gridLayoutOf, movedLayouts, widgetsIn } from './canvas-layout.ts';
import classes from './editor.module.css';

/** Space between widgets and around the grid, in pixels (the viewer uses the same). */
export const GRID_MARGIN: [number, number] = [8, 8];

type Props = {
  /** Every widget of the open page (groups' children included). */
  widgets: readonly Widget[];
  selection: readonly string[];
  runtime: WidgetRuntime;
  onSelect: (ids: readonly string[], mode: 'replace' | 'toggle') => void;
  onSelectPage: () => void;
  onMove: (layouts: { id: string; layout: Layout }[]) => void;
};

/**
 * The open page on a react-grid-layout grid of GRID_COLUMNS columns: drag and resize (one history step per gesture),
 * click to select (Ctrl, Cmd or Shift toggles), click on the empty canvas to select the page. A group shows its
 * children on a grid of its own. Every widget shows its live value through the runtime (edit mode: no actions).
 */
export function Canvas(props: Props) {
  const { t } = useTranslation();
  const { width, containerRef, mounted } = useContainerWidth();
  const top = useMemo(() => widgetsIn(props.widgets, undefined), [props.widgets]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the page is also selected with Escape (shortcuts) and the pages panel
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the empty canvas selects the page
    <div
      ref={containerRef}
      className={classes.canvas}
      data-testid="editor-canvas"
      onClick={props.onSelectPage}
      style={{ minHeight: '100%' }}
    >
      {mounted && width > 0 && <WidgetGrid {...props} items={top} width={width} />}
      {top.length === 0 && (
        <div className={classes.empty}>
          <Text c="dimmed" data-testid="editor-empty">
            {t('dashboardEditor.canvas.empty')}
          </Text>
        </div>
      )}
    </div>
  );
}

type GridProps = Props & { items: readonly Widget[]; width: number };

function WidgetGrid({ items, width, ...props }: GridProps) {
  const layout = useMemo(() => gridLayoutOf(items), [items]);
  const dragged = useRef(false);
  const stop: EventCallback = (next) => {
    const moved = movedLayouts(items, next);
    if (moved.length > 0) props.onMove(moved);
    // The click that ends a drag must not change the selection.
    setTimeout(() => {
      dragged.current = false;
    }, 0);
  };
  return (
    <GridLayout
      width={width}
      layout={layout}
      gridConfig={{
        cols: GRID_COLUMNS,
        rowHeight: GRID_ROW_HEIGHT,
        margin: GRID_MARGIN,
        containerPadding: GRID_MARGIN,
      }}
      compactor={noCompactor}
      dragConfig={{ enabled: true, cancel: `.${classes.groupBody}` }}
      resizeConfig={{ enabled: true, handles: ['se'] }}
      onDragStart={() => {
        dragged.current = true;
      }}
      onDragStop={stop}
      onResizeStart={() => {
        dragged.current = true;
      }}
      onResizeStop={stop}
    >
      {items.map((widget) => (
        // The item's frame (react-grid-layout positions it and adds the resize handle); its clicks stay here.
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: only stops the click
        <div key={widget.id} onClick={(event) => event.stopPropagation()}>
          <CanvasItem {...props} widget={widget} dragged={dragged} />
        </div>
      ))}
    </GridLayout>
  );
}

type ItemProps = Props & { widget: Widget; dragged: { current: boolean } };

/**
 * An item renders again only when its widget, its selection or the runtime changed: an undo or a paste touches one
 * or two widgets of the page, not fifty. A group always does (it draws its children's grid).
 */
function sameItem(before: ItemProps, after: ItemProps): boolean {
  if (after.widget.type === 'group') return false;
  return (
    before.widget === after.widget &&
    before.runtime === after.runtime &&
    before.onSelect === after.onSelect &&
    before.onMove === after.onMove &&
    before.selection.includes(before.widget.id) === after.selection.includes(after.widget.id)
  );
}

const CanvasItem = memo(function CanvasItem({ widget, dragged, ...props }: ItemProps) {
  const { t } = useTranslation();
  const selected = props.selection.includes(widget.id);
  const select = (event: MouseEvent | KeyboardEvent) => props.onSelect([widget.id], clickSelection(event));
  const onClick = (event: MouseEvent) => {
    event.stopPropagation();
    if (dragged.current) return;
    select(event);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(event);
      return;
    }
    const step = ARROWS[event.key];
    if (!step || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    const { x, y, w, h } = widget.layout;
    const next = event.shiftKey
      ? clampLayout({ x, y, w: w + step.dx, h: h + step.dy })
      : clampLayout({ x: x + step.dx, y: y + step.dy, w, h });
    if (next.x !== x || next.y !== y || next.w !== w || next.h !== h) {
      props.onMove([{ id: widget.id, layout: next }]);
    }
  };
  const name = widget.title || t(widgetLabelKey(widget.type));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a grid cell that holds arbitrary widget content cannot be a <button>
    <div
      className={classes.item}
      style={{ width: '100%', height: '100%' }}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={t('dashboardEditor.canvas.widget', { name })}
      aria-keyshortcuts="Enter Shift+Enter ArrowUp ArrowDown ArrowLeft ArrowRight"
      data-testid={`canvas-widget-${widget.id}`}
      data-widget-id={widget.id}
      data-widget-type={widget.type}
      data-selected={selected}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {widget.visibleTo === 'editors' && (
        <Badge
          className={classes.editorsOnly}
          size="xs"
          variant="default"
          tt="none"
          data-testid="canvas-editors-only"
        >
          {t('dashboardEditor.canvas.editorsOnly')}
        </Badge>
      )}
      {widget.type === 'group' ? (
        <GroupFrame {...props} group={widget} name={name} />
      ) : (
        <div className={classes.itemContent}>
          <WidgetView widget={widget} runtime={props.runtime} />
        </div>
      )}
    </div>
  );
}, sameItem);

const ARROWS: Record<string, { dx: number; dy: number }> = {
  ArrowLeft: { dx: -1, dy: 0 },
  ArrowRight: { dx: 1, dy: 0 },
  ArrowUp: { dx: 0, dy: -1 },
  ArrowDown: { dx: 0, dy: 1 },
};

/** A group: a bar to drag it by, then the group's frame with its children on a grid of their own. */
function GroupFrame({ group, name, ...props }: Props & { group: Widget; name: string }) {
  const { t } = useTranslation();
  const { width, containerRef, mounted } = useContainerWidth();
  const children = useMemo(() => widgetsIn(props.widgets, group.id), [props.widgets, group.id]);
  return (
    <div className={classes.group}>
      <div className={classes.groupHandle}>{t('dashboardEditor.canvas.groupHandle', { name })}</div>
      <div className={classes.groupFrame}>
        <WidgetView widget={group} runtime={props.runtime}>
          <div ref={containerRef} className={classes.groupBody}>
            {mounted && width > 0 && <WidgetGrid {...props} items={children} width={width} />}
          </div>
        </WidgetView>
      </div>
    </div>
  );
}
