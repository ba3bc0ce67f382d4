import { formatValue, numeric, withUnit } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingValue } from '../use-binding.ts';
import { useWidgetText } from '../use-widget-text.ts';
import classes from '../widget-frame.module.css';
import type { WidgetPropsOf } from '../widget-props.ts';
import { arcPath, GAUGE_START, GAUGE_SWEEP, gaugeFraction } from './geometry.ts';

const SIZE = 100;
const RADIUS = 40;

/** A value on a 240° arc between the widget's min and max (SVG in the theme's colours). */
export function GaugeWidget({ widget, runtime }: WidgetPropsOf<'gauge'>) {
  const { t, language } = useWidgetText();
  const value = useBindingValue(runtime, widget.binding);
  if (!widget.binding) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  if (!value) {
    const loading = 'slot' in widget.binding && (runtime.loading?.(widget.binding.slot) ?? false);
    return (
      <Placeholder loading={loading} message={t(loading ? 'common.loading' : 'dashboardWidgets.noValue')} />
    );
  }
  const { min, max, decimals } = widget.options;
  const unit = widget.options.unit ?? runtime.metaOf?.(widget.binding)?.unit;
  const fraction = gaugeFraction(numeric(value.value), min, max);
  const end = GAUGE_START + GAUGE_SWEEP;
  const shown = withUnit(formatValue(t, language, value.value, decimals), unit);
  const label = t('dashboardWidgets.gauge.label', {
    value: shown,
    min: formatValue(t, language, min),
    max: formatValue(t, language, max),
  });
  return (
    <div className={classes.center}>
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE * 0.85}`}
        role="img"
        aria-label={label}
        style={{ width: '100%', height: '100%', maxHeight: '100%' }}
        data-testid="gauge"
        data-fraction={fraction.toFixed(3)}
      >
        <path
          d={arcPath(50, 50, RADIUS, GAUGE_START, end)}
          fill="none"
          stroke="var(--mantine-color-default-border)"
          strokeWidth={8}
          strokeLinecap="round"
        />
        <path
          d={arcPath(50, 50, RADIUS, GAUGE_START, GAUGE_START + GAUGE_SWEEP * fraction)}
          fill="none"
          stroke="var(--mantine-primary-color-filled)"
          strokeWidth={8}
          strokeLinecap="round"
        />
        <text
          x={50}
          y={54}
          textAnchor="middle"
          fontSize={13}
          fontWeight={700}
          fill="var(--mantine-color-text)"
          data-testid="widget-value"
        >
          {shown}
        </text>
        <text x={22} y={82} textAnchor="middle" fontSize={7} fill="var(--mantine-color-dimmed)">
          {formatValue(t, language, min)}
        </text>
        <text x={78} y={82} textAnchor="middle" fontSize={7} fill="var(--mantine-color-dimmed)">
          {formatValue(t, language, max)}
        </text>
      </svg>
    </div>
  );
}
