import type { WidgetType } from '@edgeport/dashboard-schema';
import { WIDGET_ICONS } from './palette.ts';

/** The widget type's icon (decorative: the palette names the type next to it). */
export function WidgetIcon({ type, size = 18 }: { type: WidgetType; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-widget-icon={type}
    >
      <path d={WIDGET_ICONS[type]} />
    </svg>
  );
}
