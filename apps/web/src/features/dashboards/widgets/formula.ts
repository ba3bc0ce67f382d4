import type { Binding } from '@edgeport/dashboard-schema';
import { checkFormula, type Formula } from '@edgeport/formula';
import type { ScalarValue, TimedValue } from './types.ts';

/** Compiled formulas by source (null: the source is not a valid formula). */
const compiled = new Map<string, Formula | null>();
/** Formulas edited one after another in an editor session stay few; past this the cache starts again. */
const MAX_COMPILED = 500;

/**
 * The formula of a source, compiled once (through `@edgeport/formula`: filtrex's language, no access to JavaScript's
 * globals; interpreted where the page may not compile JavaScript). Null when the source is not a valid formula.
 */
export function compiledFormula(source: string): Formula | null {
  const known = compiled.get(source);
  if (known !== undefined) return known;
  const check = checkFormula(source);
  const formula = check.valid ? check.formula : null;
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(source, formula);
  return formula;
}

/** The formula of a binding (formulaMapping): device bindings may have one, variables never. */
export function formulaOf(binding: Binding): string | undefined {
  return 'slot' in binding ? binding.formula : undefined;
}

/**
 * What a widget shows for a value through a formula: a number goes through it, anything else (booleans, texts) is
 * shown unchanged, and so is every value when the formula is not valid (a document with one is refused when read, so
 * this only covers a formula being typed).
 */
export function applyFormula(value: ScalarValue, formula: Formula | null): ScalarValue {
  return formula === null || typeof value !== 'number' ? value : formula(value);
}

/** A timed value through a formula (the same object when the formula leaves it unchanged). */
export function timedThrough(point: TimedValue, formula: Formula | null): TimedValue {
  const shown = applyFormula(point.value, formula);
  return shown === point.value ? point : { ts: point.ts, value: shown };
}
