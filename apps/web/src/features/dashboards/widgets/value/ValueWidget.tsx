import { formatTime, formatValue, withUnit } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingValue } from '../use-binding.ts';
import { useWidgetText } from '../use-widget-text.ts';
import classes from '../widget-frame.module.css';
import type { WidgetPropsOf } from '../widget-props.ts';

/** One value, large, with its unit; the time it was measured in the tooltip. Plain elements (see widget-frame.module.css). */
export function ValueWidget({ widget, runtime }: WidgetPropsOf<'value'>) {
  const { t, language } = useWidgetText();
  const value = useBindingValue(runtime, widget.binding);
  if (!widget.binding) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  if (!value) {
    const loading = 'slot' in widget.binding && (runtime.loading?.(widget.binding.slot) ?? false);
    return (
      <Placeholder loading={loading} message={t(loading ? 'common.loading' : 'dashboardWidgets.noValue')} />
    );
  }
  const unit = widget.options.unit ?? runtime.metaOf?.(widget.binding)?.unit;
  const shown = withUnit(formatValue(t, language, value.value, widget.options.decimals), unit);
  return (
    <div className={classes.value}>
      <p className={classes.valueText} title={formatTime(language, value.ts)} data-testid="widget-value">
        {shown}
      </p>
    </div>
  );
}
