import { describe, expect, it } from 'vitest';
import {
  classifyValidationError,
  emptyRow,
  formFromModel,
  formToDraft,
  issueAt,
  type ModelFormValues,
  parseLimit,
  parseServerMessage,
  pathsChanged,
  placeIssues,
  rowsWithIssues,
} from './model-form.ts';

function form(rows: Partial<ModelFormValues['paths'][number]>[]): ModelFormValues {
  return { name: ' Press ', description: '', paths: rows.map((row) => ({ ...emptyRow(), ...row })) };
}

describe('parseLimit', () => {
  it('reads numbers, blank as none, a decimal comma, and refuses anything else', () => {
    expect(parseLimit('')).toBeUndefined();
    expect(parseLimit('  ')).toBeUndefined();
    expect(parseLimit('10')).toBe(10);
    expect(parseLimit('-2.5')).toBe(-2.5);
    expect(parseLimit('2,5')).toBe(2.5);
    expect(parseLimit('1e3')).toBe(1000);
    expect(parseLimit('1,000.5')).toBe('invalid');
    expect(parseLimit('abc')).toBe('invalid');
    expect(parseLimit('1e999')).toBe('invalid');
  });
});

describe('formToDraft', () => {
  it('trims, leaves blank rows out, keeps where each entry came from and parses limits', () => {
    const { draft, rowOf, localIssues } = formToDraft(
      form([
        { path: ' /motor/speed ', unit: 'rpm', min: '0', max: '3000', writable: true },
        {},
        { path: '/state', type: 'string', description: ' Running state ' },
      ]),
    );
    expect(draft).toEqual({
      name: 'Press',
      paths: [
        { path: '/motor/speed', type: 'number', unit: 'rpm', writable: true, min: 0, max: 3000 },
        { path: '/state', type: 'string', description: 'Running state' },
      ],
    });
    expect(rowOf).toEqual([0, 2]);
    expect(localIssues).toEqual([]);
  });

  it('reports a limit that is not a number on its row and leaves it out of the draft', () => {
    const { draft, localIssues } = formToDraft(form([{ path: '/a', max: 'lots' }]));
    expect(draft.paths[0]).toEqual({ path: '/a', type: 'number' });
    expect(localIssues).toEqual([{ row: 0, field: 'max', key: 'notANumber' }]);
  });

  it('round-trips a stored model', () => {
    const paths = [
      { path: '/a', type: 'integer' as const, min: 1, max: 5, unit: 'pcs' },
      { path: '/b', type: 'boolean' as const, writable: true, description: 'valve' },
    ];
    const values = formFromModel({ name: 'M', description: 'd', paths });
    expect(formToDraft(values).draft).toEqual({ name: 'M', description: 'd', paths });
  });
});

describe('pathsChanged', () => {
  const speed = { path: '/a', type: 'number', unit: 'bar' };
  const state = { path: '/b', type: 'string' };
  const current = [speed, state];
  it('ignores order and empty optional fields', () => {
    expect(pathsChanged([state, speed], current)).toBe(false);
    expect(pathsChanged([{ ...speed, description: '' }, state], current)).toBe(false);
  });
  it('sees any real change', () => {
    expect(pathsChanged([{ ...speed, unit: 'mbar' }, state], current)).toBe(true);
    expect(pathsChanged([{ ...speed, writable: true }, state], current)).toBe(true);
    expect(pathsChanged([{ ...speed, min: 0 }, state], current)).toBe(true);
    expect(pathsChanged([speed], current)).toBe(true);
  });
});

describe('classifyValidationError', () => {
  it.each([
    [
      { path: 'name', message: 'must not be blank' },
      { field: 'name', key: 'nameBlank' },
    ],
    [
      { path: 'paths', message: 'must hold at least one path' },
      { field: 'paths', key: 'noPaths' },
    ],
    [
      { path: 'paths/2/path', message: "'motor' must start with '/'" },
      { row: 2, field: 'path', key: 'pathStart' },
    ],
    [
      { path: 'paths/0/path', message: "'/' must name at least one segment after '/'" },
      { row: 0, field: 'path', key: 'pathEmpty' },
    ],
    [
      { path: 'paths/1/path', message: "'/a//b' must not hold an empty segment ('//' or a trailing '/')" },
      { row: 1, field: 'path', key: 'pathEmptySegment' },
    ],
    [
      { path: 'paths/1/path', message: "'/a b' segment 'a b' may hold only letters, digits, '_' and '-'" },
      { row: 1, field: 'path', key: 'pathSegment', values: { segment: 'a b' } },
    ],
    [
      { path: 'paths/3/path', message: "'/a' is listed twice (also paths/0)" },
      { row: 3, field: 'path', key: 'pathDuplicate', values: { row: 1 } },
    ],
    [
      { path: 'paths/0/path', message: "'/m' holds a value and is also the parent of '/m/s' (paths/1)" },
      { row: 0, field: 'path', key: 'pathParent', values: { child: '/m/s' } },
    ],
    [
      { path: 'paths/4/type', message: 'must be one of number, integer, boolean, string' },
      { row: 4, field: 'type', key: 'typeInvalid' },
    ],
    [
      { path: 'paths/0/min', message: 'applies to number and integer paths only' },
      { row: 0, field: 'min', key: 'limitNumericOnly' },
    ],
    [
      { path: 'paths/0/max', message: 'must be a whole number for an integer path' },
      { row: 0, field: 'max', key: 'limitInteger' },
    ],
    [
      { path: 'paths/0/min', message: 'min (5) is greater than max (1)' },
      { row: 0, field: 'min', key: 'minAboveMax' },
    ],
    [
      { path: 'paths/0/unit', message: 'something new' },
      { row: 0, field: 'unit', key: 'invalid' },
    ],
    [
      { path: 'elsewhere', message: '?' },
      { field: 'paths', key: 'invalid' },
    ],
  ])('%j', (error, issue) => {
    expect(classifyValidationError(error)).toEqual(issue);
  });
});

describe('parseServerMessage and placeIssues', () => {
  it('splits a refused save into its problems, with the "and N more" tail dropped', () => {
    expect(
      parseServerMessage(
        "body/paths/0/path: 'x' must start with '/'; body/paths/2/type: must be one of number, integer; and 3 more",
      ),
    ).toEqual([
      { path: 'paths/0/path', message: "'x' must start with '/'" },
      { path: 'paths/2/type', message: 'must be one of number, integer' },
    ]);
    expect(parseServerMessage("name: a model named 'x' already exists")).toEqual([]);
    expect(parseServerMessage(undefined)).toEqual([]);
  });

  it('moves draft indexes back onto the rows, blank rows skipped', () => {
    const issues = placeIssues(
      [
        { path: 'paths/1/path', message: "'/a' is listed twice (also paths/0)" },
        { path: 'name', message: 'must not be blank' },
      ],
      [0, 3],
    );
    expect(issues).toEqual([
      { row: 3, field: 'path', key: 'pathDuplicate', values: { row: 1 } },
      { field: 'name', key: 'nameBlank' },
    ]);
    expect(issueAt(issues, 3, 'path')?.key).toBe('pathDuplicate');
    expect(issueAt(issues, 3, 'type')).toBeUndefined();
    expect(rowsWithIssues(issues)).toEqual(new Set([3]));
  });
});
