import { GRID_COLUMNS, GRID_ROW_HEIGHT } from '@edgeport/dashboard-schema';
import { type CSSProperties, type ReactElement, useRef, useState } from 'react';
import {
  type GridDragEvent,
  GridItem,
  type GridItemCallback,
  type GridResizeEvent,
  type LayoutItem,
} from 'react-grid-layout';
import { bottom, cloneLayout, moveElement } from 'react-grid-layout/core';
import { useKeptElements } from './use-kept-elements.ts';
import { useStableCallback } from './use-stable-callback.ts';

/** Space between widgets and around the grid, in pixels (the viewer uses the same). */
export const GRID_MARGIN: [number, number] = [8, 8];

/** The height of a grid of `rows` rows. */
export function gridHeight(rows: number): number {
  return rows * GRID_ROW_HEIGHT + Math.max(0, rows - 1) * GRID_MARGIN[1] + 2 * GRID_MARGIN[1];
}

type Props = {
  width: number;
  /** Where each child is (by its key), as the document says. */
  layout: readonly LayoutItem[];
  /** One keyed element per widget, in the document's order (which is the tab order). */
  children: readonly ReactElement[];
  /** Selector of the parts of an item that do not start a drag. */
  cancel?: string;
  style?: CSSProperties;
  onGestureStart: () => void;
  /** A drag or resize ended: every item's place after it. */
  onGestureStop: (layout: readonly LayoutItem[]) => void;
};

/** A drag or resize under way: the places it has given the items so far, and the cell the moving item will take. */
type Gesture = { layout: LayoutItem[]; placeholder: LayoutItem; resizing: boolean };

// Constant per item: react-grid-layout's items compare their props, so none of these may change between renders.
const ITEM_CONFIG = {
  cols: GRID_COLUMNS,
  rowHeight: GRID_ROW_HEIGHT,
  margin: GRID_MARGIN,
  containerPadding: GRID_MARGIN,
  maxRows: Number.POSITIVE_INFINITY,
  isBounded: false,
  useCSSTransforms: true,
  dragThreshold: 3,
} as const;
const RESIZE_HANDLES: ['se'] = ['se'];

/**
 * The editor's grid: a react-grid-layout `GridItem` (drag, resize, position) for each child, placed straight from
 * `layout` in the same render. (react-grid-layout's own `GridLayout` copies the layout into its state in an effect,
 * so a widget that an undo brings back reached the page one render and often one frame later.) During a gesture the
 * items follow react-grid-layout's own `moveElement` (items in the way move down), and the end reports the new places.
 */
export function EditorGrid({ width, layout, children, cancel, style, onGestureStart, onGestureStop }: Props) {
  const [gesture, setGesture] = useState<Gesture | null>(null);
  // The gesture's layout as of the last event (the pointer moves faster than renders).
  const live = useRef<LayoutItem[] | null>(null);
  const shown = gesture?.layout ?? layout;

  const begin = (id: string, resizing: boolean) => {
    const current = cloneLayout(layout);
    const item = current.find((place) => place.i === id);
    if (!item) return;
    live.current = current;
    setGesture({ layout: current, placeholder: { ...item }, resizing });
    onGestureStart();
  };
  const step = (id: string, change: (layout: LayoutItem[], item: LayoutItem) => LayoutItem[]) => {
    const current = live.current;
    const item = current?.find((place) => place.i === id);
    if (!current || !item) return null;
    const next = change(current, item);
    live.current = next;
    return { next, item };
  };
  const move = (id: string, x: number, y: number) =>
    step(id, (current, item) => moveElement(current, item, x, y, true, false, null, GRID_COLUMNS, false));
  const resize = (id: string, w: number, h: number) =>
    step(id, (current, item) => current.map((place) => (place === item ? { ...place, w, h } : place)));
  const end = (next: LayoutItem[] | undefined) => {
    live.current = null;
    setGesture(null);
    if (next) onGestureStop(next);
  };

  const onDragStart: GridItemCallback<GridDragEvent> = useStableCallback((id) => begin(id, false));
  const onDrag: GridItemCallback<GridDragEvent> = useStableCallback((id, x, y) => {
    const moved = move(id, x, y);
    if (moved) setGesture({ layout: moved.next, placeholder: { ...moved.item }, resizing: false });
  });
  const onDragStop: GridItemCallback<GridDragEvent> = useStableCallback((id, x, y) =>
    end(move(id, x, y)?.next),
  );
  const onResizeStart: GridItemCallback<GridResizeEvent> = useStableCallback((id) => begin(id, true));
  const onResize: GridItemCallback<GridResizeEvent> = useStableCallback((id, w, h) => {
    const resized = resize(id, w, h);
    const item = resized?.next.find((place) => place.i === id);
    if (resized && item) setGesture({ layout: resized.next, placeholder: { ...item }, resizing: true });
  });
  const onResizeStop: GridItemCallback<GridResizeEvent> = useStableCallback((id, w, h) =>
    end(resize(id, w, h)?.next),
  );

  const places = new Map(shown.map((place) => [place.i, place]));
  // Each item's element is kept while its place, width, cancel selector and child are the same: react-grid-layout's
  // GridItem compares just these (not `layout`).
  const kept = useKeptElements();
  const item = (place: LayoutItem, child: ReactElement) =>
    kept.keep(place.i, [place.x, place.y, place.w, place.h, width, cancel, child], () => (
      <GridItem
        key={place.i}
        {...ITEM_CONFIG}
        containerWidth={width}
        isDraggable
        isResizable
        cancel={cancel}
        resizeHandles={RESIZE_HANDLES}
        x={place.x}
        y={place.y}
        w={place.w}
        h={place.h}
        i={place.i}
        layoutItem={place}
        layout={shown}
        onDragStart={onDragStart}
        onDrag={onDrag}
        onDragStop={onDragStop}
        onResizeStart={onResizeStart}
        onResize={onResize}
        onResizeStop={onResizeStop}
      >
        {child}
      </GridItem>
    ));
  kept.prune(places.size, (id) => places.has(id));
  return (
    <div className="react-grid-layout" style={{ height: gridHeight(bottom(shown)), ...style }}>
      {children.map((child) => {
        const place = places.get(String(child.key));
        return place ? item(place, child) : null;
      })}
      {gesture && (
        <GridItem
          {...ITEM_CONFIG}
          className={`react-grid-placeholder ${gesture.resizing ? 'placeholder-resizing' : ''}`}
          containerWidth={width}
          isDraggable={false}
          isResizable={false}
          x={gesture.placeholder.x}
          y={gesture.placeholder.y}
          w={gesture.placeholder.w}
          h={gesture.placeholder.h}
          i={gesture.placeholder.i}
          layout={shown}
        >
          <div />
        </GridItem>
      )}
    </div>
  );
}
