import type { Widget } from '@edgeport/dashboard-schema';

/**
 * The inspector's form for a widget's title and type-specific options, as text fields (so an optional number can be
 * left empty), and the rules that turn it back into a widget. Bindings, button actions and image assets are edited
 * by their own controls.
 */
export type WidgetFormValues = {
  title: string;
  unit: string;
  decimals: string;
  min: string;
  max: string;
  step: string;
  windowSeconds: string;
  bucketSeconds: string;
  pageSize: string;
  limit: string;
  /** The alarm list's slot; '' means every device of the dashboard. */
  alarmSlot: string;
  showAlarms: boolean;
  text: string;
  size: 'sm' | 'md' | 'lg' | 'xl';
  label: string;
  confirm: boolean;
  url: string;
  alt: string;
  fit: 'contain' | 'cover';
  /** Who sees the widget in the viewer (widgetPermissions); kept as it was while the field is hidden. */
  visibleTo: 'everyone' | 'editors';
};

export type FormField = keyof WidgetFormValues;

/** What is wrong with a field; the inspector shows it in words (`dashboardEditor.inspector.problems.*`). */
export type FieldProblem =
  | { problem: 'required' }
  | { problem: 'number' }
  | { problem: 'integer'; min: number; max: number }
  | { problem: 'minBelowMax' }
  | { problem: 'positive' }
  | { problem: 'url' }
  | { problem: 'tooLong'; max: number };

export type FormResult =
  | { ok: true; widget: Widget }
  | { ok: false; errors: Partial<Record<FormField, FieldProblem>> };

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export function toForm(widget: Widget): WidgetFormValues {
  const values: WidgetFormValues = {
    title: widget.title ?? '',
    unit: '',
    decimals: '',
    min: '',
    max: '',
    step: '',
    windowSeconds: '',
    bucketSeconds: '',
    pageSize: '',
    limit: '',
    alarmSlot: '',
    showAlarms: false,
    text: '',
    size: 'md',
    label: '',
    confirm: true,
    url: '',
    alt: '',
    fit: 'contain',
    visibleTo: widget.visibleTo ?? 'everyone',
  };
  switch (widget.type) {
    case 'value':
      return {
        ...values,
        unit: widget.options.unit ?? '',
        decimals: text(widget.options.decimals),
      };
    case 'gauge':
      return {
        ...values,
        unit: widget.options.unit ?? '',
        decimals: text(widget.options.decimals),
        min: text(widget.options.min),
        max: text(widget.options.max),
      };
    case 'lineChart':
      return { ...values, windowSeconds: text(widget.options.windowSeconds) };
    case 'barChart':
      return {
        ...values,
        windowSeconds: text(widget.options.windowSeconds),
        bucketSeconds: text(widget.options.bucketSeconds),
      };
    case 'deviceTable':
      return { ...values, pageSize: text(widget.options.pageSize) };
    case 'map':
      return { ...values, showAlarms: widget.options.showAlarms };
    case 'alarmList':
      return { ...values, alarmSlot: widget.options.slot ?? '', limit: text(widget.options.limit) };
    case 'image':
      return { ...values, alt: widget.options.alt ?? '', fit: widget.options.fit };
    case 'text':
      return { ...values, text: widget.options.text, size: widget.options.size };
    case 'button':
      return { ...values, label: widget.options.label };
    case 'switch':
      return { ...values, confirm: widget.options.confirm };
    case 'setpoint':
      return {
        ...values,
        unit: widget.options.unit ?? '',
        min: text(widget.options.min),
        max: text(widget.options.max),
        step: text(widget.options.step),
      };
    case 'iframe':
      return { ...values, url: widget.options.url };
    case 'table':
    case 'group':
      return values;
  }
}

/** Reads the form back; every problem names its field. Unchanged options keep their values. */
export function applyForm(widget: Widget, values: WidgetFormValues): FormResult {
  const errors: Partial<Record<FormField, FieldProblem>> = {};

  const limited = (field: FormField, value: string, max: number): string => {
    if (value.length > max) errors[field] = { problem: 'tooLong', max };
    return value;
  };
  const optionalNumber = (field: FormField): number | undefined => {
    const raw = String(values[field]).trim();
    if (raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      errors[field] = { problem: 'number' };
      return undefined;
    }
    return value;
  };
  const requiredNumber = (field: FormField): number => {
    const value = optionalNumber(field);
    if (value === undefined && !errors[field]) errors[field] = { problem: 'required' };
    return value ?? 0;
  };
  const optionalInteger = (field: FormField, min: number, max: number): number | undefined => {
    const value = optionalNumber(field);
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      errors[field] = { problem: 'integer', min, max };
    }
    return value;
  };
  const requiredInteger = (field: FormField, min: number, max: number): number => {
    const value = optionalInteger(field, min, max);
    if (value === undefined && !errors[field]) errors[field] = { problem: 'required' };
    return value ?? min;
  };
  const optionalText = (field: FormField, max: number): string | undefined => {
    const value = limited(field, String(values[field]).trim(), max);
    return value === '' ? undefined : value;
  };

  const title = optionalText('title', 200);
  const base = { ...widget };
  if (title === undefined) delete base.title;
  else base.title = title;
  // 'everyone' is the default: a widget without the member stays without it, one meant for editors keeps it.
  if (values.visibleTo !== (widget.visibleTo ?? 'everyone')) {
    if (values.visibleTo === 'editors') base.visibleTo = 'editors';
    else delete base.visibleTo;
  }

  let next: Widget;
  switch (widget.type) {
    case 'value': {
      next = {
        ...(base as typeof widget),
        options: withOptional(
          {},
          { unit: optionalText('unit', 20), decimals: optionalInteger('decimals', 0, 6) },
        ),
      };
      break;
    }
    case 'gauge': {
      const min = requiredNumber('min');
      const max = requiredNumber('max');
      if (!errors.min && !errors.max && min >= max) errors.max = { problem: 'minBelowMax' };
      next = {
        ...(base as typeof widget),
        options: withOptional(
          { min, max },
          { unit: optionalText('unit', 20), decimals: optionalInteger('decimals', 0, 6) },
        ),
      };
      break;
    }
    case 'lineChart':
      next = {
        ...(base as typeof widget),
        options: { windowSeconds: requiredInteger('windowSeconds', 10, 7 * 86_400) },
      };
      break;
    case 'barChart':
      next = {
        ...(base as typeof widget),
        options: {
          windowSeconds: requiredInteger('windowSeconds', 10, 7 * 86_400),
          bucketSeconds: requiredInteger('bucketSeconds', 1, 86_400),
        },
      };
      break;
    case 'deviceTable':
      next = { ...(base as typeof widget), options: { pageSize: requiredInteger('pageSize', 5, 100) } };
      break;
    case 'map':
      next = { ...(base as typeof widget), options: { showAlarms: values.showAlarms } };
      break;
    case 'alarmList':
      next = {
        ...(base as typeof widget),
        options: withOptional(
          { limit: requiredInteger('limit', 1, 100) },
          { slot: values.alarmSlot === '' ? undefined : values.alarmSlot },
        ),
      };
      break;
    case 'image':
      next = {
        ...(base as typeof widget),
        options: withOptional(
          { asset: widget.options.asset, source: widget.options.source, fit: values.fit },
          { alt: optionalText('alt', 200) },
        ),
      };
      break;
    case 'text':
      next = {
        ...(base as typeof widget),
        options: { text: limited('text', values.text, 5000), size: values.size },
      };
      break;
    case 'button': {
      const label = limited('label', values.label.trim(), 100);
      next = { ...(base as typeof widget), options: { label } };
      break;
    }
    case 'switch':
      next = { ...(base as typeof widget), options: { confirm: values.confirm } };
      break;
    case 'setpoint': {
      const min = optionalNumber('min');
      const max = optionalNumber('max');
      const step = optionalNumber('step');
      if (min !== undefined && max !== undefined && min >= max) errors.max = { problem: 'minBelowMax' };
      if (step !== undefined && step <= 0) errors.step = { problem: 'positive' };
      next = {
        ...(base as typeof widget),
        options: withOptional({}, { min, max, step, unit: optionalText('unit', 20) }),
      };
      break;
    }
    case 'iframe': {
      const url = limited('url', values.url.trim(), 2000);
      if (url === '') errors.url = { problem: 'required' };
      else if (!/^https?:\/\//.test(url)) errors.url = { problem: 'url' };
      next = { ...(base as typeof widget), options: { url } };
      break;
    }
    case 'table':
    case 'group':
      next = base as typeof widget;
      break;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, widget: next };
}

/** `fixed` with the optional fields that have a value (the schema refuses `undefined` members). */
function withOptional<Fixed extends object, Extra extends Record<string, unknown>>(
  fixed: Fixed,
  extra: Extra,
): Fixed & { [Key in keyof Extra]?: Exclude<Extra[Key], undefined> } {
  const result = { ...fixed } as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) result[key] = value;
  return result as Fixed & { [Key in keyof Extra]?: Exclude<Extra[Key], undefined> };
}

/** Whether two JSON values are equal whatever the order of their keys (the inspector commits only real changes). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  const left = Object.entries(a).filter(([, value]) => value !== undefined);
  const right = new Map(Object.entries(b).filter(([, value]) => value !== undefined));
  return (
    left.length === right.size &&
    left.every(([key, value]) => right.has(key) && sameJson(value, right.get(key)))
  );
}
