import { describe, expect, it } from 'vitest';
import { safeFrameUrl } from './safe-url.ts';

describe('iframe addresses', () => {
  it('keeps absolute https addresses', () => {
    expect(safeFrameUrl(' https://example.com/panel?x=1 ')).toBe('https://example.com/panel?x=1');
  });

  it('refuses every other scheme, relative addresses, credentials and garbage', () => {
    for (const raw of [
      'http://hmi.local:8080/',
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
