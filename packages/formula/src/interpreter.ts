/**
 * The language of filtrex 3 (the formulas of `checkFormula`), parsed and evaluated without compiling JavaScript.
 *
 * filtrex turns a formula into JavaScript source and runs it through `new Function`, which a page whose
 * Content-Security-Policy has no 'unsafe-eval' (the portal's: `script-src 'self'`) may not do. There `checkFormula`
 * uses this interpreter instead. It follows filtrex exactly: the same tokens (keywords take the character after them,
 * as filtrex's lexer does), the same operator precedence and chained relations, the same coercions and errors as
 * values, the same functions; `interpreter.test.ts` compares both on generated formulas.
 */

/** A formula that does not parse (filtrex throws at compile time). */
export class FormulaSyntaxError extends Error {
  override name = 'FormulaSyntaxError';
}

type Token =
  | { kind: 'op'; text: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'symbol'; name: string; at: number }
  | { kind: 'end'; at: number };

/** filtrex's lexical rules in its order: the first rule that matches at the position wins. */
const RULES: readonly [RegExp, (text: string) => Token | 'skip', number?][] = [
  ...['\\*', '\\/', '-', '\\+', '\\^', '\\(', '\\)', '\\,', '==', '\\!=', '\\~=', '>=', '<=', '<', '>'].map(
    (pattern): [RegExp, (text: string) => Token] => [
      new RegExp(pattern, 'y'),
      (text) => ({ kind: 'op', text, at: 0 }),
    ],
  ),
  [/not\s+in[^\w]/y, () => ({ kind: 'op', text: 'notIn', at: 0 })],
  ...['and', 'or', 'not', 'in', 'of', 'if', 'then', 'else', 'mod'].map(
    (word): [RegExp, (text: string) => Token] => [
      new RegExp(`${word}[^\\w]`, 'y'),
      () => ({ kind: 'op', text: word, at: 0 }),
    ],
  ),
  [/\s+/y, () => 'skip'],
  [/[0-9]+(?:\.[0-9]+)?(?![0-9.])/y, (text) => ({ kind: 'number', value: numberLiteral(text), at: 0 })],
  [/[a-zA-Z$_][.a-zA-Z0-9$_]*/y, (text) => ({ kind: 'symbol', name: text, at: 0 })],
  [/'(?:\\'|\\\\|[^'\\])*'/y, (text) => ({ kind: 'symbol', name: quoted(text), at: 0 })],
  [/"(?:\\"|\\\\|[^"\\])*"/y, (text) => ({ kind: 'string', value: quoted(text), at: 0 })],
  [/%/y, () => ({ kind: 'op', text: '%', at: 0 })],
  [/\?/y, () => ({ kind: 'op', text: '?', at: 0 })],
  [/:/y, () => ({ kind: 'op', text: ':', at: 0 })],
];

/**
 * A number as the JavaScript filtrex generates reads it (sloppy mode): `010` is octal 8, `08` is 8, and `07.5` does
 * not compile.
 */
function numberLiteral(text: string): number {
  const [whole = '', fraction] = text.split('.');
  if (whole.length > 1 && whole.startsWith('0')) {
    const octal = /^[0-7]+$/.test(whole);
    if (octal && fraction !== undefined) throw new FormulaSyntaxError('Unexpected number');
    if (octal) return Number.parseInt(whole, 8);
  }
  return Number(text);
}

/** A quoted text without its quotes; backslash escapes only the quote and itself. */
function quoted(literal: string): string {
  let built = '';
  for (let index = 1; index < literal.length - 1; index += 1) {
    const char = literal[index];
    if (char === '\\') {
      index += 1;
      built += literal[index] ?? '';
    } else {
      built += char;
    }
  }
  return built;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    let matched = false;
    for (const [pattern, make] of RULES) {
      pattern.lastIndex = at;
      const match = pattern.exec(source);
      if (!match) continue;
      const token = make(match[0]);
      if (token !== 'skip') tokens.push({ ...token, at });
      at += match[0].length;
      matched = true;
      break;
    }
    if (!matched) throw new FormulaSyntaxError(`Lexical error at character ${at + 1}: unrecognized text`);
  }
  tokens.push({ kind: 'end', at });
  return tokens;
}

/** The parsed formula. */
export type FormulaNode =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'property'; name: string; of?: FormulaNode }
  | { kind: 'call'; name: string; args: FormulaNode[] }
  | { kind: 'list'; items: FormulaNode[] }
  | { kind: 'negate'; operand: FormulaNode }
  | { kind: 'not'; operand: FormulaNode }
  | {
      kind: 'arithmetic';
      operator: '+' | '-' | '*' | '/' | '^' | 'mod';
      left: FormulaNode;
      right: FormulaNode;
    }
  | { kind: 'logic'; operator: 'and' | 'or'; left: FormulaNode; right: FormulaNode }
  | { kind: 'if'; condition: FormulaNode; then: FormulaNode; otherwise: FormulaNode }
  | { kind: 'in'; negated: boolean; left: FormulaNode; right: FormulaNode }
  | { kind: 'relation'; operands: FormulaNode[]; operators: string[] };

const RELATIONS = new Set(['==', '!=', '~=', '<', '<=', '>=', '>']);

/**
 * Binary operators by binding power (filtrex's precedence table, lowest first: `? :` 1, or 2, and 3, in 4, relations
 * 6, + - 8, * / mod % 9, ^ 11, unary minus and not 10, `of` 12). Relations chain (`a < b < c`); their operands bind
 * above 6.
 */
const BINARY: Record<string, { power: number; right?: boolean }> = {
  or: { power: 2 },
  and: { power: 3 },
  in: { power: 4 },
  notIn: { power: 4 },
  '+': { power: 8 },
  '-': { power: 8 },
  '*': { power: 9 },
  '/': { power: 9 },
  mod: { power: 9 },
  '%': { power: 9 },
  '^': { power: 11, right: true },
};
const RELATION_POWER = 6;
const PREFIX_POWER = 10;

class Parser {
  private index = 0;
  private readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  parse(): FormulaNode {
    const node = this.expression(1);
    this.expect('end');
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private isOp(text: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.text === text;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private expect(text: string): void {
    const token = this.next();
    const found = token.kind === 'op' ? token.text : token.kind;
    if (found !== text) {
      throw new FormulaSyntaxError(`Parse error at character ${token.at + 1}: expected ${text}`);
    }
  }

  /** An expression whose operators bind at least `minimum`. */
  private expression(minimum: number): FormulaNode {
    let left = this.prefix();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op') break;
      if (token.text === '?' && minimum <= 1) {
        this.next();
        const then = this.expression(1);
        this.expect(':');
        left = { kind: 'if', condition: left, then, otherwise: this.expression(1) };
        continue;
      }
      if (RELATIONS.has(token.text) && minimum <= RELATION_POWER) {
        const operands = [left];
        const operators: string[] = [];
        while (this.peek().kind === 'op' && RELATIONS.has((this.peek() as { text: string }).text)) {
          operators.push((this.next() as { text: string }).text);
          operands.push(this.expression(RELATION_POWER + 1));
        }
        left = { kind: 'relation', operands, operators };
        continue;
      }
      const binary = BINARY[token.text];
      if (!binary || binary.power < minimum) break;
      this.next();
      const right = this.expression(binary.right ? binary.power : binary.power + 1);
      left = combine(token.text, left, right);
    }
    return left;
  }

  private prefix(): FormulaNode {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { kind: 'number', value: token.value };
      case 'string':
        return { kind: 'string', value: token.value };
      case 'symbol':
        if (this.isOp('(')) {
          this.next();
          const args: FormulaNode[] = [];
          if (!this.isOp(')')) {
            args.push(this.expression(1));
            while (this.isOp(',')) {
              this.next();
              args.push(this.expression(1));
            }
          }
          this.expect(')');
          return { kind: 'call', name: token.name, args };
        }
        if (this.isOp('of')) {
          this.next();
          return { kind: 'property', name: token.name, of: this.prefix() };
        }
        return { kind: 'property', name: token.name };
      case 'op':
        switch (token.text) {
          case '-':
            return { kind: 'negate', operand: this.expression(PREFIX_POWER + 1) };
          case 'not':
            return { kind: 'not', operand: this.expression(PREFIX_POWER + 1) };
          case 'if': {
            const condition = this.expression(1);
            this.expect('then');
            const then = this.expression(1);
            this.expect('else');
            return { kind: 'if', condition, then, otherwise: this.expression(1) };
          }
          case '(': {
            const first = this.expression(1);
            if (!this.isOp(',')) {
              this.expect(')');
              return first;
            }
            const items = [first];
            while (this.isOp(',')) {
              this.next();
              items.push(this.expression(1));
            }
            this.expect(')');
            return { kind: 'list', items };
          }
        }
    }
    throw new FormulaSyntaxError(`Parse error at character ${token.at + 1}: unexpected ${describe(token)}`);
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'op':
      return `'${token.text}'`;
    case 'end':
      return 'end of formula';
    default:
      return token.kind;
  }
}

function combine(operator: string, left: FormulaNode, right: FormulaNode): FormulaNode {
  switch (operator) {
    case 'and':
    case 'or':
      return { kind: 'logic', operator, left, right };
    case 'in':
    case 'notIn':
      return { kind: 'in', negated: operator === 'notIn', left, right };
    case '%':
      return { kind: 'arithmetic', operator: 'mod', left, right };
    default:
      return { kind: 'arithmetic', operator: operator as '+' | '-' | '*' | '/' | '^', left, right };
  }
}

/** Parses a formula; throws FormulaSyntaxError where filtrex would not compile it. */
export function parseFormula(source: string): FormulaNode {
  return new Parser(tokenize(source)).parse();
}

// --- evaluation (filtrex's coercions: errors are thrown here and answered as values) ---------------------------------

class FormulaRuntimeError extends Error {
  override name = 'FormulaRuntimeError';
}

type FormulaValue = unknown;

/** A single-element list is its element; boxed primitives are unboxed; other objects are nothing. */
function unwrap(value: FormulaValue): FormulaValue {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof single !== 'object' || single === null) return single;
  if (single instanceof Number || single instanceof String || single instanceof Boolean)
    return single.valueOf();
  return undefined;
}

function typeName(value: FormulaValue): string {
  const plain = unwrap(value);
  if (plain === undefined) return 'undefined';
  if (plain === null) return 'null';
  if (plain === true || plain === false) return String(plain);
  if (typeof plain === 'number') return 'number';
  if (typeof plain === 'string') return 'text';
  return Array.isArray(plain) ? 'list' : 'object';
}

function expected(what: string, value: FormulaValue): never {
  throw new FormulaRuntimeError(`Expected ${what}, but got ${typeName(value)} instead.`);
}

function num(value: FormulaValue): number {
  const plain = unwrap(value);
  return typeof plain === 'number' ? plain : expected('a number', value);
}

function str(value: FormulaValue): string {
  const plain = unwrap(value);
  return typeof plain === 'string' ? plain : expected('a text', value);
}

function numstr(value: FormulaValue): number | string {
  const plain = unwrap(value);
  return typeof plain === 'number' || typeof plain === 'string' ? plain : expected('a text or number', value);
}

function bool(value: FormulaValue): boolean {
  const plain = unwrap(value);
  return typeof plain === 'boolean' ? plain : expected('a logical value (“true” or “false”)', value);
}

function list(value: FormulaValue): unknown[] {
  if (value === undefined || value === null) expected('a list', value);
  return Array.isArray(value) ? value : [value];
}

function ownProperty(object: FormulaValue, name: string): boolean {
  return (
    (typeof object === 'object' || typeof object === 'function') &&
    object !== null &&
    Object.hasOwn(object, name)
  );
}

const FUNCTIONS: Readonly<Record<string, (...args: never[]) => unknown>> = Object.freeze({
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  max: Math.max,
  min: Math.min,
  round: Math.round,
  sqrt: Math.sqrt,
  exists: (value: unknown) => value !== undefined && value !== null,
  empty: (value: unknown) =>
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0),
});

const mod = (a: number, b: number) => ((a % b) + b) % b;

function compare(operator: string, a: FormulaValue, b: FormulaValue): boolean {
  switch (operator) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return num(a) < num(b);
    case '<=':
      return num(a) <= num(b);
    case '>=':
      return num(a) >= num(b);
    case '>':
      return num(a) > num(b);
    default:
      return RegExp(str(b)).test(str(a));
  }
}

function evaluate(node: FormulaNode, data: Record<string, unknown>): FormulaValue {
  switch (node.kind) {
    case 'number':
    case 'string':
      return node.value;
    case 'property': {
      const object = node.of === undefined ? data : evaluate(node.of, data);
      if (ownProperty(object ?? {}, node.name)) return (object as Record<string, unknown>)[node.name];
      throw new FormulaRuntimeError(`Property “${node.name}” does not exist.`);
    }
    case 'call': {
      const args = node.args.map((arg) => evaluate(arg, data));
      const fn = Object.hasOwn(FUNCTIONS, node.name) ? FUNCTIONS[node.name] : undefined;
      if (typeof fn !== 'function') throw new FormulaRuntimeError(`Unknown function: ${node.name}()`);
      return (fn as (...values: unknown[]) => unknown)(...args);
    }
    case 'list':
      return node.items.map((item) => evaluate(item, data));
    case 'negate':
      return -num(evaluate(node.operand, data));
    case 'not':
      return !bool(evaluate(node.operand, data));
    case 'arithmetic': {
      const a = evaluate(node.left, data);
      const b = evaluate(node.right, data);
      switch (node.operator) {
        case '+':
          return (numstr(a) as number) + (numstr(b) as number);
        case '-':
          return num(a) - num(b);
        case '*':
          return num(a) * num(b);
        case '/':
          return num(a) / num(b);
        case '^':
          return num(a) ** num(b);
        case 'mod':
          return mod(num(a), num(b));
      }
      break;
    }
    case 'logic':
      return node.operator === 'and'
        ? bool(evaluate(node.left, data)) && bool(evaluate(node.right, data))
        : bool(evaluate(node.left, data)) || bool(evaluate(node.right, data));
    case 'if':
      return bool(evaluate(node.condition, data))
        ? evaluate(node.then, data)
        : evaluate(node.otherwise, data);
    case 'in': {
      const a = evaluate(node.left, data);
      const b = evaluate(node.right, data);
      const items = list(a);
      const within = list(b);
      const subset = items.every((item) => within.includes(item));
      return node.negated ? !subset : subset;
    }
    case 'relation': {
      let previous = evaluate(node.operands[0] as FormulaNode, data);
      for (const [index, operator] of node.operators.entries()) {
        const current = evaluate(node.operands[index + 1] as FormulaNode, data);
        if (!compare(operator, previous, current)) return false;
        previous = current;
      }
      return true;
    }
  }
  return undefined;
}

/**
 * Like filtrex's `compileExpression(source)` without its options: throws FormulaSyntaxError when the formula does not
 * parse; the function answers the formula's value for the data, or the Error that evaluating it raised.
 */
export function interpretExpression(source: string): (data: Record<string, unknown>) => unknown {
  const tree = parseFormula(source);
  return (data) => {
    try {
      return evaluate(tree, data);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
}
