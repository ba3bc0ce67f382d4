import { describe, expect, it } from 'vitest';
import { localPage } from './local-page.ts';

const rows = ['VNC 10', 'ssh', 'HMI', 'VNC 9', 'Web panel'].map((name) => ({ name, note: `${name} note` }));
const page = (request: Partial<Parameters<typeof localPage>[1]>) =>
  localPage(
    rows,
    { page: 0, pageSize: 50, ...request },
    (row) => [row.name, row.note],
    (row) => row.name,
  );

describe('localPage', () => {
  it('sorts by name, naturally and ignoring case', () => {
    expect(page({}).items.map((row) => row.name)).toEqual(['HMI', 'ssh', 'VNC 9', 'VNC 10', 'Web panel']);
    expect(page({}).total).toBe(5);
  });

  it('searches every text, ignoring case', () => {
    expect(page({ search: 'vnc' }).items.map((row) => row.name)).toEqual(['VNC 9', 'VNC 10']);
    expect(page({ search: 'PANEL NOTE' }).total).toBe(1);
    expect(page({ search: 'nothing' })).toEqual({ items: [], total: 0 });
  });

  it('cuts the requested page', () => {
    expect(page({ page: 1, pageSize: 2 })).toEqual({
      items: [rows[3], rows[0]],
      total: 5,
    });
  });
});
