import fc from 'fast-check';
import { compileExpression } from 'filtrex';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkFormula } from './index.ts';
import { interpretExpression } from './interpreter.ts';

const SAMPLES = [-2, 0, 1, 2.5, 7];

type Outcome = { parses: false } | { parses: true; values: unknown[] };

function outcome(compile: (source: string) => (data: { value: number }) => unknown, source: string): Outcome {
  let run: (data: { value: number }) => unknown;
  try {
    run = compile(source);
  } catch {
    return { parses: false };
  }
  return {
    parses: true,
    values: SAMPLES.map((value) => {
      const result = run({ value });
      return result instanceof Error ? 'error' : result;
    }),
  };
}

/** filtrex and the interpreter agree: both refuse the formula, or both give the same value (or an error) for each sample. */
function agree(source: string): void {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    const expectedOutcome = outcome(compileExpression, source);
    expect(outcome(interpretExpression, source), source).toEqual(expectedOutcome);
  } finally {
    warn.mockRestore();
  }
}

const VOCABULARY = [
  'value',
  'x',
  "'value'",
  '"a"',
  '"1"',
  '0',
  '1',
  '2',
  '2.5',
  '010',
  '08',
  '+',
  '-',
  '*',
  '/',
  '^',
  'mod',
  '%',
  '(',
  ')',
  ',',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '~=',
  'and',
  'or',
  'not',
  'in',
  'not in',
  'of',
  'if',
  'then',
  'else',
  '?',
  ':',
  'abs',
  'max',
  'min',
  'round',
  'sqrt',
  'exists',
  'length',
];

/** Formulas built from the language's pieces, mostly well-formed, at every depth. */
const formula: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('value', '1', '2', '0', '2.5', '"a"', '"3"', "'value'", 'x', '010'),
    fc
      .tuple(tie('e'), fc.constantFrom(...VOCABULARY.slice(11, 35)), tie('e'))
      .map((parts) => parts.join(' ')),
    tie('e').map((inner) => `(${inner})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a}, ${b})`),
    tie('e').map((inner) => `-${inner}`),
    tie('e').map((inner) => `not ${inner}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `if ${a} then ${b} else ${c}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
    fc
      .tuple(
        fc.constantFrom('abs', 'max', 'min', 'round', 'exists', 'empty', 'nope'),
        fc.array(tie('e'), { maxLength: 3 }),
      )
      .map(([name, args]) => `${name}(${args.join(', ')})`),
    fc.tuple(fc.constantFrom('length', "'0'", 'value'), tie('e')).map(([name, of]) => `${name} of ${of}`),
  ),
})).e;

/**
 * Formulas mostly of the right types (numbers where numbers go, relations where logic goes) without parentheses
 * between their operators, so that precedence, associativity and chained relations decide the value. `depth` bounds
 * the nesting.
 */
function numeric(depth: number): fc.Arbitrary<string> {
  const leaves = [
    fc.constantFrom('value', '1', '2', '3', '0.5', '10', 'abs(value)', 'max(value, 2)'),
    fc.constantFrom('value', '2').map((leaf) => `-${leaf}`),
  ];
  const term =
    depth === 0
      ? fc.oneof(...leaves)
      : fc.oneof(
          ...leaves,
          numeric(depth - 1).map((inner) => `(${inner})`),
          numeric(depth - 1).map((inner) => `- ${inner}`),
          fc
            .tuple(logical(depth - 1), numeric(depth - 1), numeric(depth - 1))
            .map(([c, a, b]) => `(if ${c} then ${a} else ${b})`),
        );
  return fc
    .tuple(
      term,
      fc.array(fc.tuple(fc.constantFrom('+', '-', '*', '/', '^', 'mod', '%'), term), { maxLength: 3 }),
    )
    .map(([first, rest]) => [first, ...rest.flat()].join(' '));
}

function relation(depth: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      numeric(depth),
      fc.array(fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '==', '!='), numeric(depth)), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([first, rest]) => [first, ...rest.flat()].join(' '));
}

function logical(depth: number): fc.Arbitrary<string> {
  const first =
    depth === 0
      ? fc.oneof(
          relation(0),
          relation(0).map((inner) => `not (${inner})`),
        )
      : fc.oneof(
          relation(depth - 1),
          relation(depth - 1).map((inner) => `not (${inner})`),
          relation(depth - 1).map((inner) => `not ${inner}`),
          logical(depth - 1).map((inner) => `(${inner})`),
          fc
            .tuple(numeric(depth - 1), numeric(depth - 1), numeric(depth - 1))
            .map(([a, b, c]) => `${a} in (${b}, ${c})`),
          fc
            .tuple(numeric(depth - 1), numeric(depth - 1), numeric(depth - 1))
            .map(([a, b, c]) => `${a} not in (${b}, ${c})`),
        );
  return fc
    .tuple(first, fc.array(fc.tuple(fc.constantFrom('and', 'or'), relation(0)), { maxLength: 3 }))
    .map(([head, rest]) => [head, ...rest.flat()].join(' '));
}

const typedFormula: fc.Arbitrary<string> = fc.oneof(
  numeric(2),
  logical(2),
  fc.tuple(logical(1), numeric(1), numeric(1)).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
  fc
    .tuple(numeric(1), logical(1), numeric(1), numeric(1))
    .map(([x, c, a, b]) => `${x} + if ${c} then ${a} else ${b}`),
  fc.tuple(logical(1), logical(1)).map(([a, b]) => `${a} in (${b}, value > 1)`),
);

describe('the formula interpreter', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads and computes like filtrex (examples, quirks included)', () => {
    for (const source of [
      'value * 1.8 + 32',
      '-2^2',
      '2^3^2',
      '1 < 3 < 2',
      '1 < 3 < 5',
      '1 > 3 < x',
      '(1 < 3) < 5',
      'not(1)',
      'not (value == 1)',
      'not 1 == 1',
      'value in(1,2)',
      'value in (1, 2)',
      'value not in (1,2)',
      'if value == 1 then 2 else 3 + 4',
      '1 + if value == 2 then 2 else 3 + 4',
      'value == 1 ? 2 : 3',
      '1 < 2 ? 3 : 4 < 5',
      'value mod 3',
      'value % 3',
      '7 mod -3',
      '"a" + value',
      'length of (1, 2)',
      "'0' of (5, 6)",
      'constructor of (1, 2)',
      'value and.value',
      'android',
      'max(1, value, 3)',
      'max()',
      'max((1, 2))',
      'abs(-value)',
      'toString(1)',
      '1.5.3',
      '.5',
      '010 + 0',
      '07.5',
      '08.5',
      'sqrt(-1)',
      '1/0',
      '3--3',
      'value *- 1',
      '2 ^ -1',
      '"abc" ~= "b"',
      '"abc" ~= "["',
      '"a\\"b"',
      "'val\\'ue'",
      'if 1==1 then 1 else(2)',
      '1 +',
      '',
      '   ',
      '1 2',
      'round(value / 3) * 3',
    ]) {
      agree(source);
    }
  });

  it('agrees with filtrex on random sequences of the language’s tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 9 }), (tokens) =>
        agree(tokens.join(' ')),
      ),
      { numRuns: 1500 },
    );
  });

  it('agrees with filtrex on random well-formed formulas', () => {
    fc.assert(
      fc.property(formula, (source) => agree(source)),
      { numRuns: 1500 },
    );
  });

  it('agrees with filtrex on typed formulas where precedence decides the value', () => {
    let computed = 0;
    fc.assert(
      fc.property(typedFormula, (source) => {
        agree(source);
        const result = interpretExpression(source)({ value: 1 });
        if (!(result instanceof Error)) computed += 1;
      }),
      { numRuns: 1500 },
    );
    // Most of them compute (an error on both sides proves little).
    expect(computed).toBeGreaterThan(750);
  });

  it('is what checkFormula uses where JavaScript may not be compiled (Content-Security-Policy without unsafe-eval)', () => {
    vi.stubGlobal(
      'Function',
      new Proxy(Function, {
        construct: () => {
          throw new EvalError('Evaluating a string as JavaScript violates the Content-Security-Policy');
        },
      }),
    );
    expect(() => compileExpression('value + 1')).toThrow(EvalError);
    const fahrenheit = checkFormula('value * 1.8 + 32');
    expect(fahrenheit.valid && fahrenheit.formula(100)).toBe(212);
    const flag = checkFormula('if value > 10 then 1 else 0');
    expect(flag.valid && [flag.formula(3), flag.formula(30)]).toEqual([0, 1]);
    expect(checkFormula('process.exit()')).toMatchObject({ valid: false, error: /^formula is not valid/ });
    expect(checkFormula('value +')).toMatchObject({ valid: false, error: /^formula does not parse/ });
    expect(checkFormula('"text"')).toEqual({ valid: false, error: 'formula must give a number' });
  });
});
