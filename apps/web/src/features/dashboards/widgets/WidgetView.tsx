import { bindingsOf, type Widget } from '@edgeport/dashboard-schema';
import { Box, Paper, Text } from '@mantine/core';
import { Component, type ErrorInfo, lazy, memo, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
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
import { ValueWidget } from './value/ValueWidget.tsx';

// uPlot and Leaflet load with the first chart or map (their own chunks).
const LineChartWidget = lazy(() => import('./lineChart/LineChartWidget.tsx'));
const BarChartWidget = lazy(() => import('./barChart/BarChartWidget.tsx'));
const MapWidget = lazy(() => import('./map/MapWidget.tsx'));

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
  const { t } = useTranslation();
  return <Placeholder message={t('dashboardWidgets.failed')} />;
}

function Frame({ widget, runtime, children }: WidgetViewProps) {
  const { t } = useTranslation();
  const slot = missingSlot(widget, runtime);
  const isGroup = widget.type === 'group';
  return (
    <Paper
      withBorder
      radius="sm"
      p={isGroup ? 4 : 'xs'}
      h="100%"
      data-testid="widget"
      data-widget-id={widget.id}
      data-widget-type={widget.type}
      style={{
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        ...(isGroup && { borderStyle: 'dashed', background: 'transparent' }),
      }}
    >
      {widget.title && (
        <Text size="sm" fw={600} truncate mb={4} px={isGroup ? 4 : 0} data-testid="widget-title">
          {widget.title}
        </Text>
      )}
      <Box style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {slot !== undefined ? (
          <Placeholder
            message={t('dashboardWidgets.noDevice', { slot: runtime.slotLabel?.(slot) ?? slot })}
          />
        ) : (
          children
        )}
      </Box>
    </Paper>
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
        <Paper
          withBorder
          radius="sm"
          p="xs"
          h="100%"
          data-testid="widget"
          data-widget-id={widget.id}
          data-failed
        >
          <WidgetFailed />
        </Paper>
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
