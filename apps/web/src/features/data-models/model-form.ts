/**
 * The model editor's state without React: the rows of the paths editor (text as typed), the draft sent to
 * `/models/validate`, and the problems of that answer (or of a refused save) placed on the row and field they name.
 */

export const PATH_TYPES = ['number', 'integer', 'boolean', 'string'] as const;
export type PathType = (typeof PATH_TYPES)[number];

/** A stored model path (the shape of `mappings.ModelPath`). */
export type ModelPathEntry = {
  path: string;
  type: PathType;
  unit?: string;
  description?: string;
  writable?: boolean;
  min?: number;
  max?: number;
};

/** One row of the paths editor: what the user typed. */
export type PathRow = {
  path: string;
  type: string;
  unit: string;
  writable: boolean;
  min: string;
  max: string;
  description: string;
};

export type ModelFormValues = { name: string; description: string; paths: PathRow[] };

/** A path as `/validate` takes it: the type is any text (the server names a wrong one). */
export type DraftPath = Omit<ModelPathEntry, 'type'> & { type: string };
export type ModelDraft = { name: string; description?: string; paths: DraftPath[] };

export type IssueField = 'name' | 'paths' | 'path' | 'type' | 'unit' | 'description' | 'min' | 'max';

/** A problem in words the interface translates: `key` under `dataModels.validation`, with its values. */
export type Issue = {
  /** The row (0-based) it is about; undefined for the name or the list as a whole. */
  row?: number;
  field: IssueField;
  key: string;
  values?: Record<string, string | number>;
};

export function emptyRow(): PathRow {
  return { path: '', type: 'number', unit: '', writable: false, min: '', max: '', description: '' };
}

export function rowFromPath(entry: ModelPathEntry): PathRow {
  return {
    path: entry.path,
    type: entry.type,
    unit: entry.unit ?? '',
    writable: entry.writable === true,
    min: entry.min === undefined ? '' : String(entry.min),
    max: entry.max === undefined ? '' : String(entry.max),
    description: entry.description ?? '',
  };
}

export function formFromModel(model: {
  name: string;
  description: string;
  paths: readonly ModelPathEntry[];
}): ModelFormValues {
  return {
    name: model.name,
    description: model.description,
    paths: model.paths.length > 0 ? model.paths.map(rowFromPath) : [emptyRow()],
  };
}

export function emptyForm(): ModelFormValues {
  return { name: '', description: '', paths: [emptyRow()] };
}

/**
 * A typed limit: undefined when blank, a number, or 'invalid'. A decimal comma is accepted when there is no point
 * ("2,5" is 2.5 as in German or Italian).
 */
export function parseLimit(text: string): number | undefined | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const normalized = trimmed.includes('.') ? trimmed : trimmed.replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(normalized)) return 'invalid';
  const value = Number(normalized);
  return Number.isFinite(value) ? value : 'invalid';
}

/** Whether a row is untouched (a fresh row the user has not typed in): such rows are not sent. */
export function isBlankRow(row: PathRow): boolean {
  return (
    row.path.trim() === '' &&
    row.unit.trim() === '' &&
    row.description.trim() === '' &&
    row.min.trim() === '' &&
    row.max.trim() === '' &&
    !row.writable
  );
}

/**
 * The draft of the form: blank rows left out (their indexes are remembered, so the server's `paths/2` finds its row
 * again), limits parsed, and the problems found before asking the server (a limit that is not a number).
 */
export function formToDraft(values: ModelFormValues): {
  draft: ModelDraft;
  /** Index in the draft -> index of the row. */
  rowOf: number[];
  localIssues: Issue[];
} {
  const paths: DraftPath[] = [];
  const rowOf: number[] = [];
  const localIssues: Issue[] = [];
  values.paths.forEach((row, index) => {
    if (isBlankRow(row)) return;
    const entry: DraftPath = { path: row.path.trim(), type: row.type };
    if (row.unit.trim()) entry.unit = row.unit.trim();
    if (row.description.trim()) entry.description = row.description.trim();
    if (row.writable) entry.writable = true;
    for (const limit of ['min', 'max'] as const) {
      const parsed = parseLimit(row[limit]);
      if (parsed === 'invalid') localIssues.push({ row: index, field: limit, key: 'notANumber' });
      else if (parsed !== undefined) entry[limit] = parsed;
    }
    paths.push(entry);
    rowOf.push(index);
  });
  const draft: ModelDraft = { name: values.name.trim(), paths };
  if (values.description.trim()) draft.description = values.description.trim();
  return { draft, rowOf, localIssues };
}

/** The draft as stored paths (after the server accepted it, types are known). */
export function draftPaths(draft: ModelDraft): ModelPathEntry[] {
  return draft.paths.map((entry) => ({ ...entry, type: entry.type as PathType }));
}

function normalized(entry: DraftPath): string {
  return JSON.stringify([
    entry.path,
    entry.type,
    entry.unit || null,
    entry.description || null,
    entry.writable === true,
    entry.min ?? null,
    entry.max ?? null,
  ]);
}

/** Whether saving these paths makes a new version: the server compares the same way (order does not matter). */
export function pathsChanged(next: readonly DraftPath[], current: readonly DraftPath[]): boolean {
  if (next.length !== current.length) return true;
  const a = next.map(normalized).sort();
  const b = current.map(normalized).sort();
  return a.some((value, index) => value !== b[index]);
}

export type ServerValidationError = { path: string; message: string };

const FIELD_OF: Record<string, IssueField> = {
  path: 'path',
  type: 'type',
  unit: 'unit',
  description: 'description',
  min: 'min',
  max: 'max',
  writable: 'path',
};

/**
 * One problem of `/models/validate` (or of a refused save) in translatable words: where it is (`paths/2/type`) and
 * which rule it breaks, read from the server's message. A message this does not know becomes `invalid`.
 */
export function classifyValidationError(error: ServerValidationError): Issue {
  const where = /^(?:body\/)?paths\/(\d+)(?:\/(\w+))?$/.exec(error.path);
  const message = error.message;
  if (!where) {
    if (/^(?:body\/)?name$/.test(error.path)) return { field: 'name', key: 'nameBlank' };
    if (/^(?:body\/)?paths$/.test(error.path)) return { field: 'paths', key: 'noPaths' };
    return { field: 'paths', key: 'invalid' };
  }
  const row = Number(where[1]);
  const field = FIELD_OF[where[2] ?? 'path'] ?? 'path';
  const issue = (key: string, values?: Issue['values']): Issue => ({
    row,
    field,
    key,
    ...(values && { values }),
  });
  let match: RegExpExecArray | null;
  if (field === 'path') {
    if (message.includes("must start with '/'")) return issue('pathStart');
    if (message.includes('must name at least one segment')) return issue('pathEmpty');
    if (message.includes('empty segment')) return issue('pathEmptySegment');
    match = /segment '(.*)' may hold only/.exec(message);
    if (match) return issue('pathSegment', { segment: match[1] ?? '' });
    match = /listed twice \(also paths\/(\d+)\)/.exec(message);
    if (match) return issue('pathDuplicate', { row: Number(match[1]) + 1 });
    match = /holds a value and is also the parent of '(.*)'/.exec(message);
    if (match) return issue('pathParent', { child: match[1] ?? '' });
  }
  if (field === 'type') return issue('typeInvalid');
  if (field === 'min' || field === 'max') {
    if (message.includes('number and integer paths only')) return issue('limitNumericOnly');
    if (message.includes('whole number')) return issue('limitInteger');
    if (message.includes('greater than max')) return issue('minAboveMax');
  }
  return issue('invalid');
}

/**
 * The problems a refused save names in its message ("body/paths/2/type: must be one of …; body/name: …; and 3
 * more"): each `body/<where>: <message>` part.
 */
export function parseServerMessage(message: string | undefined): ServerValidationError[] {
  if (!message) return [];
  const parts = message.split(/;\s+(?=body\/)/);
  const errors: ServerValidationError[] = [];
  for (const part of parts) {
    const match = /^body\/([\w/]+):\s*([\s\S]*?)(?:;\s+and \d+ more)?$/.exec(part.trim());
    if (match) errors.push({ path: match[1] ?? '', message: match[2] ?? '' });
  }
  return errors;
}

/** Server problems about draft entries moved onto the rows they came from. */
export function placeIssues(errors: readonly ServerValidationError[], rowOf: readonly number[]): Issue[] {
  return errors.map((error) => {
    const issue = classifyValidationError(error);
    if (issue.row === undefined) return issue;
    const row = rowOf[issue.row] ?? issue.row;
    const values =
      issue.key === 'pathDuplicate' && typeof issue.values?.row === 'number'
        ? { row: (rowOf[issue.values.row - 1] ?? issue.values.row - 1) + 1 }
        : issue.values;
    return { ...issue, row, ...(values && { values }) };
  });
}

/** The issues of one row and field (the first one is shown beside the input). */
export function issueAt(issues: readonly Issue[], row: number, field: IssueField): Issue | undefined {
  return issues.find((issue) => issue.row === row && issue.field === field);
}

/** The rows with at least one problem. */
export function rowsWithIssues(issues: readonly Issue[]): Set<number> {
  return new Set(issues.flatMap((issue) => (issue.row === undefined ? [] : [issue.row])));
}
