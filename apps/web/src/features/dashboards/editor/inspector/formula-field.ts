import type { Binding, DeviceBinding } from '@edgeport/dashboard-schema';
import { checkFormula } from '@edgeport/formula';

/** What is wrong with a binding's formula; the inspector says it in words (`dashboardEditor.formula.problems.*`). */
export type FormulaProblem = 'tooLong' | 'parse' | 'invalid' | 'notNumber';

/**
 * Checks a formula as it is typed (formulaMapping), with `@edgeport/formula` as the schema does when the dashboard is
 * saved. Empty means no formula, which is fine.
 */
export function formulaProblem(source: string): FormulaProblem | undefined {
  const text = source.trim();
  if (text === '') return undefined;
  const check = checkFormula(text);
  if (check.valid) return undefined;
  if (check.error.startsWith('formula must be at most')) return 'tooLong';
  if (check.error.startsWith('formula does not parse')) return 'parse';
  if (check.error.startsWith('formula must give a number')) return 'notNumber';
  return 'invalid';
}

/** The binding with the formula set (trimmed) or, when empty, removed. */
export function withFormula(binding: DeviceBinding, source: string): DeviceBinding {
  const text = source.trim();
  const { formula: _previous, ...rest } = binding;
  return text === '' ? rest : { ...rest, formula: text };
}

/** A device binding to a new slot or path that keeps the formula the binding had (whether shown or not). */
export function boundTo(previous: Binding | undefined, slot: string, path: string): DeviceBinding {
  const formula = previous && 'slot' in previous ? previous.formula : undefined;
  return formula === undefined ? { slot, path } : { slot, path, formula };
}
