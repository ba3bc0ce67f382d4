import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_THEME, FALLBACK_FONT_FAMILY, mantineThemeOf } from '../../shared/theme/portal-theme.ts';
import { FONT_LOAD_TIMEOUT_MS, type FontDom, STYLESHEET_FAILED } from './font-loader.ts';
import { loadUiFont, UI_FONT, uiFontState } from './ui-font.ts';

function page(stylesheetLoads: boolean, facesLoad: boolean): FontDom & { stylesheets: string[] } {
  const stylesheets: string[] = [];
  return {
    stylesheets,
    addStylesheet: (href, done) => {
      stylesheets.push(href);
      queueMicrotask(() => done(stylesheetLoads));
    },
    addScript: () => () => {},
    loadFaces: async () => (facesLoad ? 1 : 0),
    rendersFamily: () => false,
  };
}

afterEach(() => {
  uiFontState.set('loading');
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('UI font', () => {
  it('is loaded from its stylesheet and then worn by the theme', async () => {
    const dom = page(true, true);
    const warn = vi.spyOn(console, 'warn');
    await loadUiFont(dom);
    expect(dom.stylesheets).toEqual([UI_FONT.stylesheet]);
    expect(uiFontState.get()).toBe('active');
    expect(warn).not.toHaveBeenCalled();
    expect(mantineThemeOf(DEFAULT_THEME, UI_FONT.family).fontFamily).toBe(
      `"Inter Variable", ${FALLBACK_FONT_FAMILY}`,
    );
  });

  it("keeps the fallback font and logs 'Stylesheet failed to load' when the stylesheet fails", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await loadUiFont(page(false, true));
    expect(uiFontState.get()).toBe('inactive');
    expect(warn).toHaveBeenCalledWith(expect.any(String), STYLESHEET_FAILED);
    expect(mantineThemeOf(DEFAULT_THEME).fontFamily).toBe(FALLBACK_FONT_FAMILY);
  });

  it('stays on the fallback font while loading, and for good when the faces do not come within 3 s', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const done = loadUiFont(page(true, false));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS - 1);
    expect(uiFontState.get()).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(uiFontState.get()).toBe('inactive');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
