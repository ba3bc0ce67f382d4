import { bindingsOf, type Widget } from '@edgeport/dashboard-schema';
import {
  Component,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useState,
} from 'react';
import { AlarmListWidget } from './alarmList/AlarmListWidget.tsx';
import { ButtonWidget } from './button/ButtonWidget.tsx';
import { DeviceTableWidget } from './deviceTable/DeviceTableWidget.tsx';
import { GaugeWidget } from './gauge/GaugeWidget.tsx';
import { GroupWidget } from './group/GroupWidget.tsx';
import { IframeWidget } from './iframe/IframeWidget.tsx';
import { ImageWidget } from './image/ImageWidget.tsx';
import { Placeholder } from './Placeholder.tsx';
import { SetpointWidget } from './setpoint/SetpointWidget.tsx';
import { SwitchWidget } from './switch/SwitchWidget.tsx';
import { TableWidget } from './table/TableWidget.tsx';
import { TextWidget } from './text/TextWidget.tsx';
import type { WidgetRuntime, WidgetViewProps } from './types.ts';
import { useWidgetText } from './use-widget-text.ts';
import { ValueWidget } from './value/ValueWidget.tsx';
import classes from './widget-frame.module.css';
import type { WidgetPropsOf } from './widget-props.ts';

/**
 * The chunk of a widget component: `preload` fetches it (once; again after a failure), `loaded` is the component once
 * it is there. The widget suspends (its frame shows a loader) only while the chunk is not there yet.
 */
function widgetChunk<Props>(load: () => Promise<{ default: ComponentType<Props> }>) {
  const chunk: {
    loaded?: ComponentType<Props>;
    loading?: Promise<{ default: ComponentType<Props> }>;
    preload: () => Promise<{ default: ComponentType<Props> }>;
  } = {
    preload: () => {
      chunk.loading ??= load().then(
        (module) => {
          chunk.loaded = module.default;
          return module;
        },
        (error: unknown) => {
          chunk.loading = undefined;
          throw error;
        },
      );
      return chunk.loading;
    },
  };
  return chunk;
}

// uPlot and Leaflet load with the first chart or map (their own chunks), or ahead of it (preloadWidgetChunks).
const lineChart = widgetChunk(() => import('./lineChart/LineChartWidget.tsx'));
const barChart = widgetChunk(() => import('./barChart/BarChartWidget.tsx'));
const map = widgetChunk(() => import('./map/MapWidget.tsx'));
const LazyLineChart = lazy(lineChart.preload);
const LazyBarChart = lazy(barChart.preload);
const LazyMap = lazy(map.preload);

/**
 * The component of a chunk for one widget: the loaded one when the chunk is there as the widget appears, else the lazy
 * one (which suspends until it is) — kept for the widget's life, so that it never remounts when the chunk arrives.
 */
function useChunkComponent<Props>(
  chunk: { loaded?: ComponentType<Props> },
  Lazy: LazyExoticComponent<ComponentType<Props>>,
): ComponentType<Props> | LazyExoticComponent<ComponentType<Props>> {
  const [shown] = useState(() => chunk.loaded ?? Lazy);
  return shown;
}

function LineChartWidget(props: WidgetPropsOf<'lineChart'>) {
  const Shown = useChunkComponent(lineChart, LazyLineChart);
  return <Shown {...props} />;
}

function BarChartWidget(props: WidgetPropsOf<'barChart'>) {
  const Shown = useChunkComponent(barChart, LazyBarChart);
  return <Shown {...props} />;
}

function MapWidget(props: WidgetPropsOf<'map'>) {
  const Shown = useChunkComponent(map, LazyMap);
  return <Shown {...props} />;
}

/**
 * Fetches the chunks of the chart widgets (uPlot) ahead of a dashboard, so that its charts render in its first frame:
 * the viewer calls it when it opens, the dashboards list once the viewer's own code is loaded. Failures are quiet: the
 * widgets ask again when they render.
 */
export function preloadWidgetChunks(): void {
  for (const chunk of [lineChart, barChart]) chunk.preload().catch(() => {});
}

/** The widget types whose content needs a device in each bound slot; the frame says so when the slot has none. */
const NEEDS_DEVICE = new Set<Widget['type']>([
  'value',
  'gauge',
  'lineChart',
  'barChart',
  'switch',
  'setpoint',
]);

/**
 * The first slot a widget reads from that has no device, when the widget reads only from slots without a device (a
 * chart with one bound device still draws that one).
 */
export function missingSlot(widget: Widget, runtime: WidgetRuntime): string | undefined {
  if (!NEEDS_DEVICE.has(widget.type)) return undefined;
  const bindings = bindingsOf(widget).map(([, binding]) => binding);
  if (bindings.length === 0) return undefined;
  const missing = bindings.flatMap((binding) =>
    'slot' in binding && runtime.deviceOf(binding.slot) === undefined ? [binding.slot] : [],
  );
  return missing.length === bindings.length ? missing[0] : undefined;
}

function WidgetBody({ widget, runtime, children }: WidgetViewProps) {
  switch (widget.type) {
    case 'value':
      return <ValueWidget widget={widget} runtime={runtime} />;
    case 'gauge':
      return <GaugeWidget widget={widget} runtime={runtime} />;
    case 'lineChart':
      return <LineChartWidget widget={widget} runtime={runtime} />;
    case 'barChart':
      return <BarChartWidget widget={widget} runtime={runtime} />;
    case 'table':
      return <TableWidget widget={widget} runtime={runtime} />;
    case 'deviceTable':
      return <DeviceTableWidget widget={widget} runtime={runtime} />;
    case 'map':
      return <MapWidget widget={widget} runtime={runtime} />;
    case 'alarmList':
      return <AlarmListWidget widget={widget} runtime={runtime} />;
    case 'image':
      return <ImageWidget widget={widget} runtime={runtime} />;
    case 'text':
      return <TextWidget widget={widget} runtime={runtime} />;
    case 'button':
      return <ButtonWidget widget={widget} runtime={runtime} />;
    case 'switch':
      return <SwitchWidget widget={widget} runtime={runtime} />;
    case 'setpoint':
      return <SetpointWidget widget={widget} runtime={runtime} />;
    case 'iframe':
      return <IframeWidget widget={widget} runtime={runtime} />;
    case 'group':
      return (
        <GroupWidget widget={widget} runtime={runtime}>
          {children}
        </GroupWidget>
      );
    default: {
      const unknown: never = widget;
      return unknown;
    }
  }
}

type BoundaryProps = {
  widgetId: string;
  /** A new value (the widget edited or replaced) gives the widget another chance. */
  resetKey: unknown;
  children: ReactNode;
  fallback: (error: Error) => ReactNode;
};
type BoundaryState = { error: Error | null; resetKey: unknown };

/** Keeps one broken widget from breaking the dashboard: it shows its own error, the others go on. */
class WidgetErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn(`widget ${this.props.widgetId} failed`, error, info.componentStack);
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

function WidgetFailed() {
  const { t } = useWidgetText();
  return <Placeholder message={t('dashboardWidgets.failed')} />;
}

function NoDevice({ slot, runtime }: { slot: string; runtime: WidgetRuntime }) {
  const { t } = useWidgetText();
  return (
    <Placeholder message={t('dashboardWidgets.noDevice', { slot: runtime.slotLabel?.(slot) ?? slot })} />
  );
}

/**
 * The frame of a widget: the look of a bordered Mantine Paper with the title as small bold text, in plain elements
 * (a dashboard renders a hundred of them at once; see widget-frame.module.css).
 */
function Frame({ widget, runtime, children }: WidgetViewProps) {
  const slot = missingSlot(widget, runtime);
  const isGroup = widget.type === 'group';
  return (
    <div
      className={classes.frame}
      data-testid="widget"
      data-widget-id={widget.id}
      data-widget-type={widget.type}
      data-group={isGroup || undefined}
    >
      {widget.title && (
        <p className={classes.title} data-testid="widget-title">
          {widget.title}
        </p>
      )}
      <div className={classes.body}>
        {slot !== undefined ? <NoDevice slot={slot} runtime={runtime} /> : children}
      </div>
    </div>
  );
}

/**
 * One widget of any type in its frame (title, "No device in slot …", loading and empty states) behind its own error
 * boundary. Memoized: it renders again only when the widget, the runtime or a group's children change — live values
 * reach the widgets through their own subscriptions.
 */
export const WidgetView = memo(function WidgetView({ widget, runtime, children }: WidgetViewProps) {
  return (
    <WidgetErrorBoundary
      widgetId={widget.id}
      resetKey={widget}
      fallback={() => (
        <div className={classes.frame} data-testid="widget" data-widget-id={widget.id} data-failed>
          <WidgetFailed />
        </div>
      )}
    >
      <Frame widget={widget} runtime={runtime}>
        <Suspense fallback={<Placeholder loading message="" />}>
          <WidgetBody widget={widget} runtime={runtime}>
            {children}
          </WidgetBody>
        </Suspense>
      </Frame>
    </WidgetErrorBoundary>
  );
});
