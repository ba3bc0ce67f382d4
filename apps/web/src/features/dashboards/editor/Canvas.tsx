import 'react-grid-layout/css/styles.css';
import type { Layout, Widget } from '@edgeport/dashboard-schema';
import { Badge, Text } from '@mantine/core';
import { type KeyboardEvent, type MouseEvent, memo, useCallback, useMemo, useRef } from 'react';
import { type LayoutItem, useContainerWidth } from 'react-grid-layout';
import { bottom } from 'react-grid-layout/core';
import { useTranslation } from 'react-i18next';
import { widgetLabelKey } from '../widgets/palette.ts';
import type { WidgetRuntime } from '../widgets/types.ts';
import { WidgetView } from '../widgets/WidgetView.tsx';
import { clampLayout, clickSelection, gridLayoutOf, movedLayouts, widgetsIn } from './canvas-layout.ts';
import { EditorGrid, gridHeight } from './EditorGrid.tsx';
import classes from './editor.module.css';
import { useKeptElements } from './use-kept-elements.ts';
import { useStableCallback } from './use-stable-callback.ts';

type Props = {
  /** Every widget of the open page (groups' children included). */
  widgets: readonly Widget[];
  selection: readonly string[];
  runtime: WidgetRuntime;
  onSelect: (ids: readonly string[], mode: 'replace' | 'toggle') => void;
  onSelectPage: () => void;
  onMove: (layouts: { id: string; layout: Layout }[]) => void;
  /**
   * A run of undo and redo steps is under way: the page's grid keeps the tallest height it had during the run (it
   * grows at once, and shrinks when the run ends), so that stepping does not resize and repaint the whole canvas.
   */
  holdHeight?: boolean;
};

/**
 * The open page on the editor grid (GRID_COLUMNS columns, react-grid-layout items): drag and resize (one history
 * step per gesture), click to select (Ctrl, Cmd or Shift toggles), click on the empty canvas to select the page. A group shows its
 * children on a grid of its own. Every widget shows its live value through the runtime (edit mode: no actions).
 * Memoized (give it handlers that keep their identity).
 */
export const Canvas = memo(function Canvas({ onSelectPage, holdHeight = false, ...props }: Props) {
  const { t } = useTranslation();
  const { width, containerRef, mounted } = useContainerWidth();
  const top = useMemo(() => widgetsIn(props.widgets, undefined), [props.widgets]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the page is also selected with Escape (shortcuts) and the pages panel
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the empty canvas selects the page
    <div className={classes.canvas} data-testid="editor-canvas" onClick={onSelectPage} style={CANVAS_STYLE}>
      {/* Measures the width only: the canvas's height follows the widgets, and its changes need no new width. */}
      <div ref={containerRef} className={classes.sizer} />
      {mounted && width > 0 && <WidgetGrid {...props} items={top} width={width} holdHeight={holdHeight} />}
      {top.length === 0 && (
        <div className={classes.empty}>
          <Text c="dimmed" data-testid="editor-empty">
            {t('dashboardEditor.canvas.empty')}
          </Text>
        </div>
      )}
    </div>
  );
});

const CANVAS_STYLE = { minHeight: '100%' };

type GridProps = Omit<Props, 'onSelectPage'> & { items: readonly Widget[]; width: number };

/** The item's frame (react-grid-layout positions it and adds the resize handle); its clicks stay here. */
const stopClick = (event: MouseEvent) => event.stopPropagation();

function WidgetGrid({ items, width, widgets, selection, runtime, onSelect, onMove, holdHeight }: GridProps) {
  const layout = useMemo(() => gridLayoutOf(items), [items]);
  const rows = useMemo(() => bottom(layout), [layout]);
  const tallest = useRef(0);
  tallest.current = holdHeight ? Math.max(tallest.current, rows) : 0;
  const style = holdHeight ? { minHeight: gridHeight(tallest.current) } : undefined;
  const dragged = useRef(false);
  const stop = useStableCallback((next: readonly LayoutItem[]) => {
    const moved = movedLayouts(items, next);
    if (moved.length > 0) onMove(moved);
    // The click that ends a drag must not change the selection.
    setTimeout(() => {
      dragged.current = false;
    }, 0);
  });
  const start = useCallback(() => {
    dragged.current = true;
  }, []);
  // Each widget's grid child is the same element as long as its widget and selection are the same: react-grid-layout
  // then skips the items an undo step did not touch (an undo adds or removes one widget of fifty).
  const kept = useKeptElements();
  const children = items.map((widget) => {
    const selected = selection.includes(widget.id);
    const group = widget.type === 'group';
    // A group's frame draws its children: it follows the page's widgets and selection too.
    const inputs = [widget, selected, runtime, onSelect, onMove, group && widgets, group && selection];
    return kept.keep(widget.id, inputs, () => (
      // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: only stops the click
      <div key={widget.id} onClick={stopClick}>
        <CanvasItem
          widget={widget}
          selected={selected}
          runtime={runtime}
          onSelect={onSelect}
          onMove={onMove}
          dragged={dragged}
          widgets={group ? widgets : undefined}
          selection={group ? selection : undefined}
        />
      </div>
    ));
  });
  kept.prune(items.length, (id) => items.some((widget) => widget.id === id));
  return (
    <EditorGrid
      width={width}
      layout={layout}
      cancel={`.${classes.groupBody}`}
      style={style}
      onGestureStart={start}
      onGestureStop={stop}
    >
      {children}
    </EditorGrid>
  );
}

type ItemProps = {
  widget: Widget;
  selected: boolean;
  runtime: WidgetRuntime;
  onSelect: Props['onSelect'];
  onMove: Props['onMove'];
  dragged: { current: boolean };
  /** A group's page widgets and selection (its frame draws its children); undefined for other widgets. */
  widgets: readonly Widget[] | undefined;
  selection: readonly string[] | undefined;
};

/**
 * One widget on the canvas. Memoized: an undo or a paste touches one or two widgets of the page, not fifty; a group
 * renders again with the page's widgets or selection (it draws its children's grid).
 */
const CanvasItem = memo(function CanvasItem({
  widget,
  selected,
  runtime,
  onSelect,
  onMove,
  dragged,
  widgets,
  selection,
}: ItemProps) {
  const { t } = useTranslation();
  const select = (event: MouseEvent | KeyboardEvent) => onSelect([widget.id], clickSelection(event));
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
      onMove([{ id: widget.id, layout: next }]);
    }
  };
  const name = widget.title || t(widgetLabelKey(widget.type));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a grid cell that holds arbitrary widget content cannot be a <button>
    <div
      className={classes.item}
      style={ITEM_STYLE}
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
        <GroupFrame
          group={widget}
          name={name}
          widgets={widgets ?? []}
          selection={selection ?? []}
          runtime={runtime}
          onSelect={onSelect}
          onMove={onMove}
        />
      ) : (
        <div className={classes.itemContent}>
          <WidgetView widget={widget} runtime={runtime} />
        </div>
      )}
    </div>
  );
});

const ITEM_STYLE = { width: '100%', height: '100%' };

const ARROWS: Record<string, { dx: number; dy: number }> = {
  ArrowLeft: { dx: -1, dy: 0 },
  ArrowRight: { dx: 1, dy: 0 },
  ArrowUp: { dx: 0, dy: -1 },
  ArrowDown: { dx: 0, dy: 1 },
};

/** A group: a bar to drag it by, then the group's frame with its children on a grid of their own. */
function GroupFrame({
  group,
  name,
  ...props
}: Omit<Props, 'onSelectPage'> & { group: Widget; name: string }) {
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
