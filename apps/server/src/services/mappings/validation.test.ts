import { describe, expect, it } from 'vitest';
import { describeErrors, mappingErrors, modelErrors, pathSyntaxError, samePaths } from './validation.ts';

describe('pathSyntaxError', () => {
  it('accepts slash-separated segments of letters, digits, _ and -', () => {
    for (const path of ['/a', '/motor/speed', '/Line_1/motor-2/T3'])
      expect(pathSyntaxError(path)).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(pathSyntaxError('motor')).toContain("start with '/'");
    expect(pathSyntaxError('/')).toContain('at least one segment');
    expect(pathSyntaxError('/a/')).toContain('empty segment');
    expect(pathSyntaxError('/a.b')).toContain("segment 'a.b'");
    expect(pathSyntaxError('/ä')).toContain("segment 'ä'");
  });
});

describe('modelErrors', () => {
  it('finds a value path that is also a parent, at any depth', () => {
    const errors = modelErrors({
      paths: [
        { path: '/a/b/c/d', type: 'number' },
        { path: '/a', type: 'number' },
        { path: '/ab', type: 'number' },
      ],
    });
    expect(errors).toEqual([
      { path: 'paths/1/path', message: "'/a' holds a value and is also the parent of '/a/b/c/d' (paths/0)" },
    ]);
  });

  it('accepts min equal to max and limits on numbers', () => {
    expect(modelErrors({ paths: [{ path: '/x', type: 'integer', min: 3, max: 3 }] })).toEqual([]);
  });
});

describe('samePaths', () => {
  it('ignores order and empty optional fields, not content', () => {
    const a = [
      { path: '/a', type: 'number' as const, unit: '' },
      { path: '/b', type: 'string' as const },
    ];
    expect(
      samePaths(a, [
        { path: '/b', type: 'string' },
        { path: '/a', type: 'number' },
      ]),
    ).toBe(true);
    expect(
      samePaths(a, [
        { path: '/b', type: 'string' },
        { path: '/a', type: 'integer' },
      ]),
    ).toBe(false);
    expect(samePaths(a, [{ path: '/a', type: 'number' }])).toBe(false);
  });
});

describe('mappingErrors', () => {
  it('stores mappings without blank formulas', () => {
    const { errors, stored } = mappingErrors(
      [
        { tag: 'A', path: '/a', formula: ' ' },
        { tag: 'B', path: '/b', formula: 'value * 2' },
      ],
      [
        { path: '/a', type: 'number' },
        { path: '/b', type: 'integer' },
      ],
    );
    expect(errors).toEqual([]);
    expect(stored).toEqual([
      { tag: 'A', path: '/a' },
      { tag: 'B', path: '/b', formula: 'value * 2' },
    ]);
  });

  it('refuses tags with surrounding spaces', () => {
    const { errors } = mappingErrors([{ tag: ' A', path: '/a' }], [{ path: '/a', type: 'number' }]);
    expect(errors[0]?.path).toBe('mappings/0/tag');
  });
});

describe('describeErrors', () => {
  it('lists the first few errors with their place in the body', () => {
    const errors = Array.from({ length: 7 }, (_, index) => ({ path: `paths/${index}/path`, message: 'bad' }));
    const message = describeErrors(errors);
    expect(message.startsWith('body/paths/0/path: bad; body/paths/1/path: bad')).toBe(true);
    expect(message.endsWith('and 2 more')).toBe(true);
  });
});
