import { describe, expect, it } from 'vitest';
import { safeFrameUrl } from './safe-url.ts';

describe('iframe addresses', () => {
  it('keeps absolute http and https addresses', () => {
    expect(safeFrameUrl('https://example.com/panel?x=1')).toBe('https://example.com/panel?x=1');
    expect(safeFrameUrl(' http://hmi.local:8080/ ')).toBe('http://hmi.local:8080/');
  });

  it('refuses every other scheme, relative addresses, credentials and garbage', () => {
    for (const raw of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '/relative/path',
      '//example.com/x',
      'https://user:secret@example.com/',
      'not a url',
      '',
    ]) {
      expect(safeFrameUrl(raw), raw).toBeUndefined();
    }
  });
});
