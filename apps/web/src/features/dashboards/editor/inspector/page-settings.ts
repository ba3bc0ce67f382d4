import {
  bindingsOf,
  type DashboardDocument,
  type DeviceSlot,
  type Variable,
} from '@edgeport/dashboard-schema';

/** The slot names and variable names the document's widgets use (those cannot be renamed or removed). */
export function usedNames(document: DashboardDocument): { slots: Set<string>; variables: Set<string> } {
  const slots = new Set<string>();
  const variables = new Set<string>();
  for (const page of document.pages) {
    for (const widget of page.widgets) {
      for (const [, binding] of bindingsOf(widget)) {
        if ('slot' in binding) slots.add(binding.slot);
        else variables.add(binding.variable);
      }
      if (widget.type === 'alarmList' && widget.options.slot) slots.add(widget.options.slot);
      if (widget.type === 'button') {
        const action = widget.action;
        if (action.kind === 'setVariable') variables.add(action.variable);
        if (action.kind === 'loadDashboard') {
          for (const source of Object.values(action.slots)) if ('slot' in source) slots.add(source.slot);
        }
      }
    }
  }
  return { slots, variables };
}

/** The first free name `{prefix}{n}`. */
export function nextName(prefix: string, taken: readonly string[]): string {
  const names = new Set(taken);
  for (let n = 1; ; n += 1) if (!names.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

export type NameProblem = 'required' | 'slotPattern' | 'variablePattern' | 'duplicate' | 'tooLong';

const SLOT_NAME = /^[a-z][a-z0-9_]*$/;
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function slotNameProblem(name: string, others: readonly string[]): NameProblem | undefined {
  if (name === '') return 'required';
  if (name.length > 32) return 'tooLong';
  if (!SLOT_NAME.test(name)) return 'slotPattern';
  if (others.includes(name)) return 'duplicate';
  return undefined;
}

export function variableNameProblem(name: string, others: readonly string[]): NameProblem | undefined {
  if (name === '') return 'required';
  if (name.length > 32) return 'tooLong';
  if (!VARIABLE_NAME.test(name)) return 'variablePattern';
  if (others.includes(name)) return 'duplicate';
  return undefined;
}

/** A typed value from its text: numbers and booleans as such; undefined when the text does not fit the type. */
export function parseValue(type: Variable['type'], raw: string): Variable['initial'] | undefined {
  const text = raw.trim();
  if (type === 'string') return raw.length <= 1000 ? raw : undefined;
  if (type === 'boolean') {
    if (text === 'true') return true;
    if (text === 'false') return false;
    return undefined;
  }
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A value the user typed for a write or a variable whose type is unknown: a number or boolean when it reads as one. */
export function guessValue(raw: string): number | boolean | string {
  const text = raw.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text !== '' && Number.isFinite(Number(text))) return Number(text);
  return raw;
}

/**
 * A list form's commit (device slots, variables) as a change of the editor's current list: the form's rows, then the
 * items of the current list it has never shown nor made (`known` holds those names), such as the slots a paste brought
 * in while the form was behind (the form's whole list would drop them and unbind the pasted widgets). A name the form
 * has known stays the form's to keep, rename or leave out, even when its own earlier commit has not reached it yet.
 */
export function formListChange<Item extends { name: string }>(
  edited: readonly Item[],
  known: ReadonlySet<string>,
) {
  return (current: readonly Item[]): readonly Item[] => [
    ...edited,
    ...current.filter((item) => !known.has(item.name)),
  ];
}

/** The slots form: one row per slot, with '' for absent optional fields. */
export type SlotRow = { name: string; label: string; modelId: string; defaultDeviceId: string };

export function toSlotRows(slots: readonly DeviceSlot[]): SlotRow[] {
  return slots.map((slot) => ({
    name: slot.name,
    label: slot.label,
    modelId: slot.modelId ?? '',
    defaultDeviceId: slot.defaultDeviceId ?? '',
  }));
}

export function fromSlotRows(rows: readonly SlotRow[]): DeviceSlot[] {
  return rows.map((row) => ({
    name: row.name.trim(),
    label: row.label.trim().slice(0, 100),
    ...(row.modelId && { modelId: row.modelId }),
    ...(row.defaultDeviceId && { defaultDeviceId: row.defaultDeviceId }),
  }));
}

export type VariableRow = { name: string; type: Variable['type']; initial: string };

export function toVariableRows(variables: readonly Variable[]): VariableRow[] {
  return variables.map((variable) => ({
    name: variable.name,
    type: variable.type,
    initial: String(variable.initial),
  }));
}

/** The variables of the rows, or the index of the first row whose initial value does not fit its type. */
export function fromVariableRows(
  rows: readonly VariableRow[],
): { ok: true; variables: Variable[] } | { ok: false; badInitial: number } {
  const variables: Variable[] = [];
  for (const [index, row] of rows.entries()) {
    const initial = parseValue(row.type, row.initial);
    if (initial === undefined) return { ok: false, badInitial: index };
    variables.push({ name: row.name.trim(), type: row.type, initial });
  }
  return { ok: true, variables };
}

/**
 * An asset name from a file's name: the characters the asset service accepts (`[A-Za-z0-9._ -]`, starting with a
 * letter or digit), at most 200; 'image' with the file's extension when nothing usable is left.
 */
export function assetNameOf(fileName: string): string {
  const [, rawStem = '', extension = ''] = /^(.*?)(\.[A-Za-z0-9]{1,8})?$/s.exec(fileName) ?? [];
  const stem = rawStem
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._ -]/g, '')
    .replace(/^[^A-Za-z0-9]+/, '')
    .trim();
  return `${(stem || 'image').slice(0, 200 - extension.length).trim()}${extension}`;
}
