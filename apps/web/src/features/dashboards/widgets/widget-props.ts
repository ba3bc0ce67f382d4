import type { WidgetOf, WidgetType } from '@edgeport/dashboard-schema';
import type { WidgetRuntime } from './types.ts';

/** The props of one widget type's component: `WidgetViewProps` with the widget narrowed to its type. */
export type WidgetPropsOf<Type extends WidgetType> = { widget: WidgetOf<Type>; runtime: WidgetRuntime };
