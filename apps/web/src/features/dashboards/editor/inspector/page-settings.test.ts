import { type DashboardDocument, emptyDocument } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import {
  assetNameOf,
  formListChange,
  fromSlotRows,
  fromVariableRows,
  guessValue,
  nextName,
  parseValue,
  slotNameProblem,
  toSlotRows,
  usedNames,
  variableNameProblem,
} from './page-settings.ts';

describe('page settings', () => {
  it('finds the slots and variables the widgets use', () => {
    const document: DashboardDocument = {
      ...emptyDocument('dashboard'),
      slots: [
        { name: 'press', label: 'Press' },
        { name: 'oven', label: 'Oven' },
        { name: 'spare', label: 'Spare' },
      ],
      variables: [
        { name: 'mode', type: 'string', initial: 'a' },
        { name: 'unused', type: 'number', initial: 0 },
      ],
      pages: [
        {
          id: 'page-1',
          title: 'Main',
          widgets: [
            {
              id: 'v',
              type: 'value',
              layout: { x: 0, y: 0, w: 2, h: 2 },
              binding: { slot: 'press', path: '/t' },
              options: {},
            },
            {
              id: 'b',
              type: 'button',
              layout: { x: 0, y: 2, w: 2, h: 2 },
              action: { kind: 'setVariable', variable: 'mode', value: 'b' },
              options: { label: 'B' },
            },
            {
              id: 'a',
              type: 'alarmList',
              layout: { x: 0, y: 4, w: 2, h: 2 },
              options: { slot: 'oven', limit: 5 },
            },
          ],
        },
      ],
    };
    const used = usedNames(document);
    expect([...used.slots].sort()).toEqual(['oven', 'press']);
    expect([...used.variables]).toEqual(['mode']);
  });

  it('proposes the first free name', () => {
    expect(nextName('slot', [])).toBe('slot1');
    expect(nextName('slot', ['slot1', 'slot3'])).toBe('slot2');
  });

  it('checks slot and variable names like the schema', () => {
    expect(slotNameProblem('press_1', [])).toBeUndefined();
    expect(slotNameProblem('', [])).toBe('required');
    expect(slotNameProblem('Press', [])).toBe('slotPattern');
    expect(slotNameProblem('1press', [])).toBe('slotPattern');
    expect(slotNameProblem('press', ['press'])).toBe('duplicate');
    expect(slotNameProblem('p'.repeat(33), [])).toBe('tooLong');
    expect(variableNameProblem('Mode2', [])).toBeUndefined();
    expect(variableNameProblem('2mode', [])).toBe('variablePattern');
  });

  it('reads typed values', () => {
    expect(parseValue('number', ' 4.5 ')).toBe(4.5);
    expect(parseValue('number', 'x')).toBeUndefined();
    expect(parseValue('number', '')).toBeUndefined();
    expect(parseValue('boolean', 'true')).toBe(true);
    expect(parseValue('boolean', 'yes')).toBeUndefined();
    expect(parseValue('string', ' a ')).toBe(' a ');
    expect(guessValue('42')).toBe(42);
    expect(guessValue('false')).toBe(false);
    expect(guessValue('on')).toBe('on');
  });

  it('turns slot rows into slots without empty optional fields', () => {
    const slots = [{ name: 'press', label: 'Press', modelId: '7f0c0c39-6a39-4a3c-9f4e-7a8a3c1d2e4f' }];
    expect(fromSlotRows(toSlotRows(slots))).toEqual(slots);
    expect(fromSlotRows([{ name: ' oven ', label: 'Oven', modelId: '', defaultDeviceId: '' }])).toEqual([
      { name: 'oven', label: 'Oven' },
    ]);
  });

  it('commits a list form as its rows plus what it never knew of the current list', () => {
    const press = { name: 'press', label: 'Press' };
    const pasted = { name: 'line', label: 'Line' };
    // The form showed press and slot1, renamed slot1 to mixer, then to blender, before either commit came back.
    const known = new Set(['press', 'slot1', 'mixer', 'blender']);
    const edited = [
      { ...press, label: 'Big press' },
      { name: 'blender', label: 'Blender' },
    ];
    expect(formListChange(edited, known)([press, { name: 'mixer', label: 'Mixer' }, pasted])).toEqual([
      ...edited,
      pasted,
    ]);
    expect(formListChange(edited, known)([press])).toEqual(edited);
  });

  it('refuses an initial value that does not fit the type', () => {
    expect(fromVariableRows([{ name: 'n', type: 'number', initial: '3' }])).toEqual({
      ok: true,
      variables: [{ name: 'n', type: 'number', initial: 3 }],
    });
    expect(
      fromVariableRows([
        { name: 'n', type: 'number', initial: '3' },
        { name: 'b', type: 'boolean', initial: 'maybe' },
      ]),
    ).toEqual({ ok: false, badInitial: 1 });
  });

  it('makes asset names the asset service accepts', () => {
    expect(assetNameOf('Logo 2024.png')).toBe('Logo 2024.png');
    expect(assetNameOf('Über-Plan (v2).svg')).toBe('Uber-Plan v2.svg');
    expect(assetNameOf('../../etc/passwd')).toBe('etcpasswd');
    expect(assetNameOf('图片.png')).toBe('image.png');
    expect(assetNameOf('.hidden')).toBe('image.hidden');
    expect(assetNameOf('photo')).toBe('photo');
    expect(/^[A-Za-z0-9][A-Za-z0-9._ -]*$/.test(assetNameOf(`${'a'.repeat(300)}.png`))).toBe(true);
    expect(assetNameOf(`${'a'.repeat(300)}.png`).length).toBeLessThanOrEqual(200);
  });
});
