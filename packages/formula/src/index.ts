import { compileExpression } from 'filtrex';
import { interpretExpression } from './interpreter.ts';

/**
 * A formula turns a raw number (`value`) into another, e.g. `value * 0.1 - 40`: a preset mapping from a device tag to a
 * model path, or a dashboard binding from a model path to what a widget shows.
 */
export type Formula = (value: number) => number;

export type FormulaCheck = { valid: true; formula: Formula } | { valid: false; error: string };

const MAX_FORMULA_LENGTH = 500;

/**
 * Compiles a formula of the one variable `value` with filtrex, which has no access to JavaScript's globals. A formula
 * that does not parse, names anything but `value`, or does not give a finite number for a sample value is refused.
 */
export function checkFormula(source: string): FormulaCheck {
  if (!source.trim()) return { valid: false, error: 'formula must not be blank' };
  if (source.length > MAX_FORMULA_LENGTH) {
    return { valid: false, error: `formula must be at most ${MAX_FORMULA_LENGTH} characters` };
  }
  let compiled: (data: { value: number }) => unknown;
  try {
    compiled = compileExpression(source);
  } catch (error) {
    if (!(error instanceof EvalError)) {
      return { valid: false, error: `formula does not parse: ${firstLine(error)}` };
    }
    // filtrex parsed it but may not compile JavaScript here (a page whose Content-Security-Policy has no
    // 'unsafe-eval', like the portal's): the same language, interpreted.
    try {
      compiled = interpretExpression(source);
    } catch (interpreted) {
      return { valid: false, error: `formula does not parse: ${firstLine(interpreted)}` };
    }
  }
  const sample = compiled({ value: 1 });
  if (sample instanceof Error) return { valid: false, error: `formula is not valid: ${firstLine(sample)}` };
  if (typeof sample !== 'number' && typeof sample !== 'boolean') {
    return { valid: false, error: 'formula must give a number' };
  }
  return {
    valid: true,
    formula: (value) => {
      const result = compiled({ value });
      return typeof result === 'number' ? result : result === true ? 1 : result === false ? 0 : Number.NaN;
    },
  };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
