import { describe, expect, it } from 'vitest';
import {
  csvField,
  csvLine,
  exportPercent,
  JOURNAL_CSV_HEADER,
  journalCsvLines,
  journalCsvName,
  slug,
} from './csv.ts';

describe('journal CSV', () => {
  it('quotes fields that need it and defuses formulas', () => {
    expect(csvField('device.activated')).toBe('device.activated');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('-1')).toBe('-1');
    expect(csvField(-1)).toBe('-1');
    expect(csvField(null)).toBe('');
  });

  it('writes one CRLF record per entry, times in UTC ISO form', () => {
    expect(csvLine(JOURNAL_CSV_HEADER)).toBe('time,resourceType,delta,reason,subjectId\r\n');
    const text = journalCsvLines([
      {
        at: '2026-03-02T10:00:00.000Z',
        resourceType: 'devices',
        delta: 1,
        reason: 'device.activated',
        subjectId: 'd1',
      },
      {
        at: '2026-03-01T09:30:00Z',
        resourceType: 'devices',
        delta: -1,
        reason: 'device.deleted',
        subjectId: null,
      },
    ]);
    expect(text).toBe(
      '2026-03-02T10:00:00.000Z,devices,1,device.activated,d1\r\n' +
        '2026-03-01T09:30:00.000Z,devices,-1,device.deleted,\r\n',
    );
  });

  it('names the file after the organization, the resource type and the chosen days', () => {
    expect(
      journalCsvName('Pressen Müller & Söhne', 'dataPoints', { start: '2026-03-01', end: '2026-03-31' }),
    ).toBe('consumption-pressen-muller-sohne-datapoints-2026-03-01-2026-03-31.csv');
    expect(slug('***')).toBe('organization');
  });

  it('reports progress as a whole percentage', () => {
    expect(exportPercent(0, 0)).toBe(0);
    expect(exportPercent(1, 3)).toBe(33);
    expect(exportPercent(3, 3)).toBe(100);
    expect(exportPercent(5, 3)).toBe(100);
  });
});
