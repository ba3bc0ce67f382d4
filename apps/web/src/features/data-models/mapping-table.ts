/**
 * The preset editor's mapping table without React: rows binding a device's data tag to a model path (with a formula
 * when the `formulaMapping` flag is on), the problems of each row, and what is sent to `POST /presets`.
 */

export type MappingRow = { key: string; tag: string; path: string | null; formula: string };
export type MappingState = { rows: MappingRow[]; nextKey: number };
/** What a row may point at: the paths of the chosen model version. */
export type TargetPath = { path: string; type: string };

export type MappingAction =
  | { type: 'add' }
  | { type: 'remove'; key: string }
  | { type: 'set'; key: string; field: 'tag' | 'formula'; value: string }
  | { type: 'setPath'; key: string; path: string | null }
  /** Adds a row for every path no row uses yet, its tag named after the path; an untouched row is reused. */
  | { type: 'fill'; paths: readonly TargetPath[] }
  /** The model version changed: rows keep their tags, paths the version lacks are cleared. */
  | { type: 'retarget'; paths: readonly TargetPath[] }
  | { type: 'clear' };

/** Above this many mappings a preset is created in the background with progress (spec 4). */
export const ASYNC_THRESHOLD = 50;

const NUMERIC = new Set(['number', 'integer']);

export function initialMappingState(): MappingState {
  return { rows: [{ key: 'm0', tag: '', path: null, formula: '' }], nextKey: 1 };
}

/** The data tag a device would publish a path as: `/motor/speed` -> `motor_speed`. */
export function tagOf(path: string): string {
  return path.replace(/^\/+/, '').replaceAll('/', '_');
}

export function isEmptyRow(row: MappingRow): boolean {
  return row.tag.trim() === '' && row.path === null && row.formula.trim() === '';
}

function newRow(state: MappingState, fields: Partial<MappingRow> = {}): [MappingRow, number] {
  return [{ key: `m${state.nextKey}`, tag: '', path: null, formula: '', ...fields }, state.nextKey + 1];
}

export function mappingReducer(state: MappingState, action: MappingAction): MappingState {
  switch (action.type) {
    case 'add': {
      const [row, nextKey] = newRow(state);
      return { rows: [...state.rows, row], nextKey };
    }
    case 'remove': {
      const rows = state.rows.filter((row) => row.key !== action.key);
      if (rows.length === state.rows.length) return state;
      return { ...state, rows };
    }
    case 'set':
      return {
        ...state,
        rows: state.rows.map((row) =>
          row.key === action.key ? { ...row, [action.field]: action.value } : row,
        ),
      };
    case 'setPath':
      return {
        ...state,
        rows: state.rows.map((row) => {
          if (row.key !== action.key) return row;
          // A tag still empty takes the path's name: the usual case needs no typing.
          const tag = row.tag.trim() === '' && action.path ? tagOf(action.path) : row.tag;
          return { ...row, path: action.path, tag };
        }),
      };
    case 'fill': {
      const used = new Set(state.rows.flatMap((row) => (row.path ? [row.path] : [])));
      const tags = new Set(state.rows.map((row) => row.tag.trim()));
      let rows = state.rows.filter((row) => !isEmptyRow(row));
      let next: MappingState = { ...state, rows };
      for (const target of action.paths) {
        if (used.has(target.path)) continue;
        let tag = tagOf(target.path);
        for (let n = 2; tags.has(tag); n += 1) tag = `${tagOf(target.path)}_${n}`;
        tags.add(tag);
        const [row, nextKey] = newRow(next, { tag, path: target.path });
        rows = [...rows, row];
        next = { rows, nextKey };
      }
      return next.rows.length === 0 ? initialMappingState() : next;
    }
    case 'retarget': {
      const known = new Set(action.paths.map((target) => target.path));
      return {
        ...state,
        rows: state.rows.map((row) => (row.path && !known.has(row.path) ? { ...row, path: null } : row)),
      };
    }
    case 'clear': {
      const [row, nextKey] = newRow(state);
      return { rows: [row], nextKey };
    }
  }
}

export type RowIssues = { tag?: string; path?: string; formula?: string };

/**
 * The problems of every row, by row key, as keys under `dataModels.mappings.errors`: the rules the server applies
 * (tags not blank, no spaces around them, each tag and each path once, paths of the version, formulas only on
 * number and integer paths). Untouched rows are not checked: they are not sent.
 */
export function mappingIssues(
  rows: readonly MappingRow[],
  paths: readonly TargetPath[],
  formulas: boolean,
): Map<string, RowIssues> {
  const byPath = new Map(paths.map((target) => [target.path, target]));
  const tagCount = new Map<string, number>();
  const pathCount = new Map<string, number>();
  for (const row of rows) {
    if (isEmptyRow(row)) continue;
    const tag = row.tag.trim();
    if (tag) tagCount.set(tag, (tagCount.get(tag) ?? 0) + 1);
    if (row.path) pathCount.set(row.path, (pathCount.get(row.path) ?? 0) + 1);
  }
  const issues = new Map<string, RowIssues>();
  for (const row of rows) {
    if (isEmptyRow(row)) continue;
    const found: RowIssues = {};
    const tag = row.tag.trim();
    if (!tag) found.tag = 'tagRequired';
    else if (tag !== row.tag) found.tag = 'tagSpaces';
    else if ((tagCount.get(tag) ?? 0) > 1) found.tag = 'tagTwice';
    const target = row.path ? byPath.get(row.path) : undefined;
    if (!row.path) found.path = 'pathRequired';
    else if (!target) found.path = 'pathUnknown';
    else if ((pathCount.get(row.path) ?? 0) > 1) found.path = 'pathTwice';
    if (formulas && row.formula.trim() && target && !NUMERIC.has(target.type))
      found.formula = 'formulaNumericOnly';
    if (found.tag || found.path || found.formula) issues.set(row.key, found);
  }
  return issues;
}

/** Whether a path can take a formula (number and integer paths). */
export function takesFormula(paths: readonly TargetPath[], path: string | null): boolean {
  const target = paths.find((entry) => entry.path === path);
  return target !== undefined && NUMERIC.has(target.type);
}

export type PresetMappingBody = { tag: string; path: string; formula?: string };

/** What `POST /presets` gets: untouched rows left out, formulas only when the flag is on and one was typed. */
export function toMappings(rows: readonly MappingRow[], formulas: boolean): PresetMappingBody[] {
  return rows.flatMap((row) => {
    if (isEmptyRow(row) || !row.path) return [];
    const formula = row.formula.trim();
    return [
      formulas && formula ? { tag: row.tag, path: row.path, formula } : { tag: row.tag, path: row.path },
    ];
  });
}

/** Spec 4: large presets, or when asked, are created in the background with progress. */
export function createsInBackground(mappingCount: number, asked: boolean): boolean {
  return asked || mappingCount > ASYNC_THRESHOLD;
}

/**
 * A refused creation's problems (`mappings/3/tag: 'x' is mapped twice …`) put back on the rows they name. `sent`
 * lists the row keys in the order their mappings were sent (see `sentKeys`).
 */
export function placeMappingErrors(
  errors: readonly { path: string; message: string }[],
  sent: readonly string[],
): Map<string, RowIssues> {
  const placed = new Map<string, RowIssues>();
  for (const error of errors) {
    const where = /^mappings\/(\d+)\/(tag|path|formula)$/.exec(error.path);
    const key = where ? sent[Number(where[1])] : undefined;
    if (!where || !key) continue;
    const field = where[2] as keyof RowIssues;
    const message = error.message;
    let issue: string;
    if (field === 'tag')
      issue = message.includes('twice')
        ? 'tagTwice'
        : message.includes('spaces')
          ? 'tagSpaces'
          : message.includes('blank')
            ? 'tagRequired'
            : 'rejected';
    else if (field === 'path')
      issue = message.includes('already bound')
        ? 'pathTwice'
        : message.includes('not a path')
          ? 'pathUnknown'
          : 'rejected';
    else issue = message.includes('number and integer paths only') ? 'formulaNumericOnly' : 'formulaInvalid';
    placed.set(key, { ...placed.get(key), [field]: issue });
  }
  return placed;
}

/** The keys of the rows `toMappings` sends, in its order. */
export function sentKeys(rows: readonly MappingRow[]): string[] {
  return rows.flatMap((row) => (isEmptyRow(row) || !row.path ? [] : [row.key]));
}

/** The device configuration typed as JSON: an object, or undefined when it is not one. */
export function parseConfiguration(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
