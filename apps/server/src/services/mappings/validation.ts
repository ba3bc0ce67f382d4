import type { mappings } from '@edgeport/contract';
import { checkFormula } from '@edgeport/formula';
import { MODEL_PATH_TYPES, type ModelPath, type ModelPathType, type PresetMapping } from '../../db/schema.ts';

/** The rules of models and presets, without storage: what `/validate` reports and what create and update enforce. */

export type ValidationError = mappings.ValidationError;

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const NUMERIC: readonly ModelPathType[] = ['number', 'integer'];

function isPathType(type: string): type is ModelPathType {
  return (MODEL_PATH_TYPES as readonly string[]).includes(type);
}

/** What is wrong with the syntax of a model path, or undefined: `/a/b_c/d-1`, segments [A-Za-z0-9_-]+. */
export function pathSyntaxError(path: string): string | undefined {
  if (!path.startsWith('/')) return "must start with '/'";
  if (path === '/') return "must name at least one segment after '/'";
  const segments = path.slice(1).split('/');
  if (segments.some((segment) => segment === ''))
    return "must not hold an empty segment ('//' or a trailing '/')";
  const bad = segments.find((segment) => !SEGMENT.test(segment));
  if (bad !== undefined) return `segment '${bad}' may hold only letters, digits, '_' and '-'`;
  return undefined;
}

type DraftPath = { path: string; type: string; min?: number; max?: number };

/**
 * Every problem of a model body: blank name, no paths, bad path syntax, duplicate paths, unknown type, limits on a
 * type without limits, min above max, and a path that holds a value while other paths sit below it.
 */
export function modelErrors(draft: { name?: string; paths: readonly DraftPath[] }): ValidationError[] {
  const errors: ValidationError[] = [];
  if (draft.name !== undefined && !draft.name.trim())
    errors.push({ path: 'name', message: 'must not be blank' });
  if (draft.paths.length === 0) errors.push({ path: 'paths', message: 'must hold at least one path' });
  const firstIndex = new Map<string, number>();
  draft.paths.forEach((entry, index) => {
    const at = `paths/${index}`;
    const syntax = pathSyntaxError(entry.path);
    if (syntax) errors.push({ path: `${at}/path`, message: `'${entry.path}' ${syntax}` });
    const earlier = firstIndex.get(entry.path);
    if (earlier !== undefined) {
      errors.push({ path: `${at}/path`, message: `'${entry.path}' is listed twice (also paths/${earlier})` });
    } else {
      firstIndex.set(entry.path, index);
    }
    if (!isPathType(entry.type)) {
      errors.push({ path: `${at}/type`, message: `must be one of ${MODEL_PATH_TYPES.join(', ')}` });
    } else if (!NUMERIC.includes(entry.type)) {
      for (const limit of ['min', 'max'] as const) {
        if (entry[limit] !== undefined)
          errors.push({ path: `${at}/${limit}`, message: `applies to number and integer paths only` });
      }
    } else if (entry.type === 'integer') {
      for (const limit of ['min', 'max'] as const) {
        const value = entry[limit];
        if (value !== undefined && !Number.isInteger(value))
          errors.push({ path: `${at}/${limit}`, message: `must be a whole number for an integer path` });
      }
    }
    if (entry.min !== undefined && entry.max !== undefined && entry.min > entry.max)
      errors.push({ path: `${at}/min`, message: `min (${entry.min}) is greater than max (${entry.max})` });
  });
  // A path with a value cannot also be the parent of other paths: '/motor' and '/motor/speed'.
  for (const [path, index] of firstIndex) {
    if (pathSyntaxError(path)) continue;
    let parent = path.slice(0, path.lastIndexOf('/'));
    while (parent) {
      const parentIndex = firstIndex.get(parent);
      if (parentIndex !== undefined) {
        errors.push({
          path: `paths/${parentIndex}/path`,
          message: `'${parent}' holds a value and is also the parent of '${path}' (paths/${index})`,
        });
        break;
      }
      parent = parent.slice(0, parent.lastIndexOf('/'));
    }
  }
  return errors;
}

/** A model path as stored: only the fields given, in one order (so that versions compare by their content). */
export function normalizedPath(entry: mappings.ModelPath): ModelPath {
  const path: ModelPath = { path: entry.path, type: entry.type };
  if (entry.unit !== undefined && entry.unit !== '') path.unit = entry.unit;
  if (entry.description !== undefined && entry.description !== '') path.description = entry.description;
  if (entry.writable === true) path.writable = true;
  if (entry.min !== undefined) path.min = entry.min;
  if (entry.max !== undefined) path.max = entry.max;
  return path;
}

/** Whether two path lists describe the same model (order does not matter). */
export function samePaths(a: readonly ModelPath[], b: readonly ModelPath[]): boolean {
  if (a.length !== b.length) return false;
  const key = (entry: ModelPath) => JSON.stringify(normalizedPath(entry));
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.every((value, index) => value === right[index]);
}

/** Checks preset mappings one by one (so a long check can report progress); keeps what earlier mappings used. */
export class MappingChecker {
  readonly #byPath: Map<string, ModelPath>;
  readonly #tags = new Map<string, number>();
  readonly #paths = new Map<string, number>();

  constructor(paths: readonly ModelPath[]) {
    this.#byPath = new Map(paths.map((entry) => [entry.path, entry]));
  }

  /** The problems of mapping `index`; the mapping as stored when there are none. */
  check(
    mapping: mappings.PresetMapping,
    index: number,
  ): { errors: ValidationError[]; stored?: PresetMapping } {
    const at = `mappings/${index}`;
    const errors: ValidationError[] = [];
    const tag = mapping.tag.trim();
    if (!tag) errors.push({ path: `${at}/tag`, message: 'must not be blank' });
    else if (tag !== mapping.tag)
      errors.push({ path: `${at}/tag`, message: `'${mapping.tag}' must not start or end with spaces` });
    else {
      const earlier = this.#tags.get(tag);
      if (earlier !== undefined)
        errors.push({ path: `${at}/tag`, message: `'${tag}' is mapped twice (also mappings/${earlier})` });
      else this.#tags.set(tag, index);
    }
    const target = this.#byPath.get(mapping.path);
    if (!target) {
      errors.push({ path: `${at}/path`, message: `'${mapping.path}' is not a path of the model version` });
    } else {
      const earlier = this.#paths.get(mapping.path);
      if (earlier !== undefined)
        errors.push({
          path: `${at}/path`,
          message: `'${mapping.path}' is already bound by mappings/${earlier}; a path takes one tag`,
        });
      else this.#paths.set(mapping.path, index);
    }
    const formula = mapping.formula?.trim() ? mapping.formula : undefined;
    if (formula !== undefined && target) {
      if (!NUMERIC.includes(target.type)) {
        errors.push({
          path: `${at}/formula`,
          message: `a formula applies to number and integer paths only ('${target.path}' is ${target.type})`,
        });
      } else {
        const check = checkFormula(formula);
        if (!check.valid) errors.push({ path: `${at}/formula`, message: check.error });
      }
    }
    if (errors.length > 0) return { errors };
    return {
      errors,
      stored: formula === undefined ? { tag, path: mapping.path } : { tag, path: mapping.path, formula },
    };
  }
}

/** Every problem of a preset's mappings against the paths of its model version, and the mappings as stored. */
export function mappingErrors(
  input: readonly mappings.PresetMapping[],
  paths: readonly ModelPath[],
): { errors: ValidationError[]; stored: PresetMapping[] } {
  const checker = new MappingChecker(paths);
  const errors: ValidationError[] = [];
  const stored: PresetMapping[] = [];
  input.forEach((mapping, index) => {
    const result = checker.check(mapping, index);
    errors.push(...result.errors);
    if (result.stored) stored.push(result.stored);
  });
  return { errors, stored };
}

/** A 400 message from validation errors: the first few, each naming its place in the body. */
export function describeErrors(errors: readonly ValidationError[], limit = 5): string {
  const shown = errors.slice(0, limit).map((error) => `body/${error.path}: ${error.message}`);
  const more = errors.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}
