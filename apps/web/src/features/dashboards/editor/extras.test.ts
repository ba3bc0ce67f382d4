import { DASHBOARD_SCHEMA_VERSION } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../shared/files/download.ts';
import { storageShare } from './asset-storage.ts';
import { galleryWidgetPayload } from './gallery-widgets.ts';

describe('asset storage', () => {
  it('gives the share used in percent, bounded', () => {
    expect(storageShare(0, 100)).toBe(0);
    expect(storageShare(25_000_000, 100_000_000)).toBe(25);
    expect(storageShare(1, 3)).toBe(33.3);
    expect(storageShare(200, 100)).toBe(100);
    expect(storageShare(5, 0)).toBe(100);
  });

  it('formats the sizes in the locale', () => {
    expect(formatBytes(1_250_000, 'en-US')).toBe('1.3 MB');
    expect(formatBytes(104_857_600, 'de-DE')).toBe('104,9 MB');
  });
});

describe('gallery widgets', () => {
  it('inserts a gallery document like a paste, with the slots its bindings name', () => {
    const document = {
      schemaVersion: DASHBOARD_SCHEMA_VERSION,
      widgets: [
        {
          id: 'w1',
          type: 'value',
          title: 'Speed',
          layout: { x: 0, y: 0, w: 4, h: 3 },
          binding: { slot: 'motor', path: '/motor/speed' },
          options: {},
        },
      ],
    };
    const read = galleryWidgetPayload(document);
    if (!read.ok) throw new Error(read.errors.join('; '));
    expect(read.payload.format).toBe('edgeport/widgets');
    expect(read.payload.widgets).toHaveLength(1);
    expect(read.payload.slots).toEqual([{ name: 'motor', label: 'motor' }]);
  });

  it('refuses a broken or empty document with the field named', () => {
    const broken = galleryWidgetPayload({
      schemaVersion: DASHBOARD_SCHEMA_VERSION,
      widgets: [{ type: 'nope' }],
    });
    expect(broken.ok).toBe(false);
    expect(galleryWidgetPayload({ schemaVersion: DASHBOARD_SCHEMA_VERSION, widgets: [] })).toEqual({
      ok: false,
      errors: ['document/widgets is empty'],
    });
  });
});
