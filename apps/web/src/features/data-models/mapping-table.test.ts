import { describe, expect, it } from 'vitest';
import {
  ASYNC_THRESHOLD,
  createsInBackground,
  initialMappingState,
  type MappingAction,
  type MappingState,
  mappingIssues,
  mappingReducer,
  parseConfiguration,
  placeMappingErrors,
  sentKeys,
  tagOf,
  takesFormula,
  toMappings,
} from './mapping-table.ts';

const PATHS = [
  { path: '/motor/speed', type: 'number' },
  { path: '/motor/count', type: 'integer' },
  { path: '/state', type: 'string' },
  { path: '/running', type: 'boolean' },
];

function run(...actions: MappingAction[]): MappingState {
  return actions.reduce(mappingReducer, initialMappingState());
}

describe('mappingReducer', () => {
  it('starts with one empty row and adds rows with fresh keys', () => {
    const state = run({ type: 'add' }, { type: 'add' });
    expect(state.rows.map((row) => row.key)).toEqual(['m0', 'm1', 'm2']);
    expect(state.rows.every((row) => row.tag === '' && row.path === null && row.formula === '')).toBe(true);
  });

  it('names an empty tag after the chosen path, keeps a typed one', () => {
    let state = run({ type: 'setPath', key: 'm0', path: '/motor/speed' });
    expect(state.rows[0]).toMatchObject({ tag: 'motor_speed', path: '/motor/speed' });
    state = mappingReducer(state, { type: 'set', key: 'm0', field: 'tag', value: 'SPD' });
    state = mappingReducer(state, { type: 'setPath', key: 'm0', path: '/motor/count' });
    expect(state.rows[0]).toMatchObject({ tag: 'SPD', path: '/motor/count' });
  });

  it('removes a row by key and ignores an unknown key', () => {
    const state = run({ type: 'add' }, { type: 'remove', key: 'm0' });
    expect(state.rows.map((row) => row.key)).toEqual(['m1']);
    expect(mappingReducer(state, { type: 'remove', key: 'nope' })).toBe(state);
  });

  it('fills a row for every unused path, replacing untouched rows and avoiding tag clashes', () => {
    const state = run(
      { type: 'set', key: 'm0', field: 'tag', value: 'state' },
      { type: 'add' },
      { type: 'fill', paths: PATHS },
    );
    expect(state.rows.map((row) => [row.tag, row.path])).toEqual([
      ['state', null],
      ['motor_speed', '/motor/speed'],
      ['motor_count', '/motor/count'],
      ['state_2', '/state'],
      ['running', '/running'],
    ]);
    expect(new Set(state.rows.map((row) => row.key)).size).toBe(5);
    // Again: nothing left to add.
    expect(mappingReducer(state, { type: 'fill', paths: PATHS }).rows).toHaveLength(5);
  });

  it('clears the paths a new model version lacks and keeps the tags', () => {
    const state = run({ type: 'fill', paths: PATHS }, { type: 'retarget', paths: PATHS.slice(0, 2) });
    expect(state.rows.map((row) => row.path)).toEqual(['/motor/speed', '/motor/count', null, null]);
    expect(state.rows.map((row) => row.tag)).toEqual(['motor_speed', 'motor_count', 'state', 'running']);
  });

  it('clears the table to one fresh row', () => {
    const state = run({ type: 'fill', paths: PATHS }, { type: 'clear' });
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]?.path).toBeNull();
  });
});

describe('mappingIssues', () => {
  it('finds blank, padded and doubled tags, missing, unknown and doubled paths, formulas on other types', () => {
    const rows = [
      { key: 'a', tag: 'x', path: '/motor/speed', formula: 'value * 2' },
      { key: 'b', tag: 'x', path: '/motor/speed', formula: '' },
      { key: 'c', tag: '', path: '/state', formula: '' },
      { key: 'd', tag: ' y', path: null, formula: '' },
      { key: 'e', tag: 'z', path: '/gone', formula: '' },
      { key: 'f', tag: 'w', path: '/running', formula: 'value' },
      { key: 'g', tag: '', path: null, formula: '' },
    ];
    const issues = mappingIssues(rows, PATHS, true);
    expect(Object.fromEntries(issues)).toEqual({
      a: { tag: 'tagTwice', path: 'pathTwice' },
      b: { tag: 'tagTwice', path: 'pathTwice' },
      c: { tag: 'tagRequired' },
      d: { tag: 'tagSpaces', path: 'pathRequired' },
      e: { path: 'pathUnknown' },
      f: { formula: 'formulaNumericOnly' },
    });
  });

  it('does not judge formulas while the formulaMapping flag is off', () => {
    const rows = [{ key: 'f', tag: 'w', path: '/running', formula: 'value' }];
    expect(mappingIssues(rows, PATHS, false).size).toBe(0);
  });
});

describe('toMappings and helpers', () => {
  it('sends touched rows with a path, formulas only with the flag on', () => {
    const rows = [
      { key: 'a', tag: 'speed', path: '/motor/speed', formula: ' value / 10 ' },
      { key: 'b', tag: 'state', path: '/state', formula: '' },
      { key: 'c', tag: '', path: null, formula: '' },
    ];
    expect(toMappings(rows, true)).toEqual([
      { tag: 'speed', path: '/motor/speed', formula: 'value / 10' },
      { tag: 'state', path: '/state' },
    ]);
    expect(toMappings(rows, false)).toEqual([
      { tag: 'speed', path: '/motor/speed' },
      { tag: 'state', path: '/state' },
    ]);
  });

  it('names tags after paths and knows which paths take a formula', () => {
    expect(tagOf('/motor/temp/winding')).toBe('motor_temp_winding');
    expect(takesFormula(PATHS, '/motor/count')).toBe(true);
    expect(takesFormula(PATHS, '/state')).toBe(false);
    expect(takesFormula(PATHS, null)).toBe(false);
  });

  it('creates in the background when asked or above the threshold', () => {
    expect(createsInBackground(ASYNC_THRESHOLD, false)).toBe(false);
    expect(createsInBackground(ASYNC_THRESHOLD + 1, false)).toBe(true);
    expect(createsInBackground(2, true)).toBe(true);
  });
});

describe('placeMappingErrors', () => {
  it('puts the problems of a refused creation on the rows that were sent', () => {
    const rows = [
      { key: 'a', tag: 't1', path: '/motor/speed', formula: '' },
      { key: 'empty', tag: '', path: null, formula: '' },
      { key: 'b', tag: 't1', path: '/state', formula: 'value +' },
    ];
    const sent = sentKeys(rows);
    expect(sent).toEqual(['a', 'b']);
    const placed = placeMappingErrors(
      [
        { path: 'mappings/1/tag', message: "'t1' is mapped twice (also mappings/0)" },
        { path: 'mappings/1/formula', message: 'formula does not parse: x' },
        { path: 'mappings/0/path', message: "'/motor/speed' is not a path of the model version" },
        { path: 'mappings/9/tag', message: 'must not be blank' },
        { path: 'name', message: 'must not be blank' },
      ],
      sent,
    );
    expect(Object.fromEntries(placed)).toEqual({
      a: { path: 'pathUnknown' },
      b: { tag: 'tagTwice', formula: 'formulaInvalid' },
    });
  });
});

describe('parseConfiguration', () => {
  it('takes a JSON object (blank is an empty one) and nothing else', () => {
    expect(parseConfiguration('')).toEqual({});
    expect(parseConfiguration('{"interval": 5}')).toEqual({ interval: 5 });
    expect(parseConfiguration('[1]')).toBeUndefined();
    expect(parseConfiguration('null')).toBeUndefined();
    expect(parseConfiguration('{oops')).toBeUndefined();
  });
});
