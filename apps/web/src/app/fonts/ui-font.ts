import uiFontStylesheet from '@fontsource-variable/inter/index.css?url';
import { createStore } from '../../shared/store.ts';
import { browserFontDom, type FontDom, type FontSource, loadFont } from './font-loader.ts';

/** The portal's UI font, served with the app (no font host to reach, nothing sent about the user). */
export const UI_FONT = { family: 'Inter Variable', stylesheet: uiFontStylesheet } satisfies FontSource;

/**
 * `loading` and `inactive` mean the fallback fonts: the theme takes the UI font only once it is there, so text does
 * not change font a while after the page is shown, nor ever when the font cannot be had.
 */
export type UiFontState = 'loading' | 'active' | 'inactive';

export const uiFontState = createStore<UiFontState>('loading');

/** Starts loading the UI font; a failure is logged and the page keeps its fallback fonts. */
export async function loadUiFont(dom: FontDom = browserFontDom(document), source: FontSource = UI_FONT) {
  try {
    await loadFont(dom, source);
    uiFontState.set('active');
  } catch (error) {
    uiFontState.set('inactive');
    console.warn(
      'UI font unavailable, keeping the fallback font:',
      error instanceof Error ? error.message : error,
    );
  }
}
