/** Spec 9: how long a font may take before the page keeps its fallback font. */
export const FONT_LOAD_TIMEOUT_MS = 3_000;
/** Spec 9: the check with the browser's font loading API… */
export const FONT_API_CHECK_INTERVAL_MS = 25;
/** …and, where a browser has none, the check that measures rendered text. */
export const FONT_MEASURE_CHECK_INTERVAL_MS = 50;

/** Spec 8: the font's stylesheet answered with an error. */
export const STYLESHEET_FAILED = 'Stylesheet failed to load';
/** Spec 8: the font's script did not load within the time-out. */
export const SCRIPT_LOAD_TIMEOUT = 'Script load timeout';

/** A font and where its faces are declared: a stylesheet of `@font-face` rules, or a script that adds them. */
export type FontSource =
  | { family: string; stylesheet: string; testText?: string }
  | { family: string; script: string; testText?: string };

/** What the loader needs of the page, so the timings can be checked without a browser. */
export type FontDom = {
  /** Adds `<link rel="stylesheet">`; `done` is called once: true when it loaded, false when it failed. */
  addStylesheet: (href: string, done: (loaded: boolean) => void) => void;
  /** Adds `<script>`; `loaded` is called once it has run. Answers a function that removes it. */
  addScript: (src: string, loaded: () => void) => () => void;
  /** The CSS Font Loading API where the browser has it: how many faces matching `font` are loaded. */
  loadFaces?: (font: string, text: string) => Promise<number>;
  /** Without that API: whether `text` set in `family` measures differently from the fallback fonts alone. */
  rendersFamily: (family: string, text: string) => boolean;
};

/** Text whose glyph widths differ between most fonts (webfonts' usual probe). */
const DEFAULT_TEST_TEXT = 'BESbswy';

function quoted(family: string): string {
  return `"${family.replace(/["\\]/g, '\\$&')}"`;
}

export function loadStylesheet(dom: FontDom, href: string): Promise<void> {
  return new Promise((resolve, reject) => {
    dom.addStylesheet(href, (loaded) => (loaded ? resolve() : reject(new Error(STYLESHEET_FAILED))));
  });
}

/** Resolves once the script has run; rejects with 'Script load timeout' (and removes it) when it has not in time. */
export function loadScript(dom: FontDom, src: string, timeoutMs = FONT_LOAD_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let remove = () => {};
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      remove();
      reject(new Error(SCRIPT_LOAD_TIMEOUT));
    }, timeoutMs);
    remove = dom.addScript(src, () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Resolves true once the family's faces are usable, false when they are not after the time-out (or a face failed to
 * load): checked every 25 ms through the font loading API, else every 50 ms by measuring text.
 */
export function watchFont(
  dom: FontDom,
  family: string,
  testText = DEFAULT_TEST_TEXT,
  timeoutMs = FONT_LOAD_TIMEOUT_MS,
): Promise<boolean> {
  const { loadFaces } = dom;
  return new Promise((resolve) => {
    let settled = false;
    let poll: ReturnType<typeof setTimeout> | undefined;
    const settle = (active: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(poll);
      resolve(active);
    };
    // A face download that hangs must not hold the page past the time-out, so the deadline is a timer of its own.
    const deadline = setTimeout(() => settle(false), timeoutMs);
    const again = (check: () => void, ms: number) => {
      if (!settled) poll = setTimeout(check, ms);
    };
    if (loadFaces) {
      const font = `16px ${quoted(family)}`;
      const check = () => {
        loadFaces(font, testText).then(
          (count) => (count > 0 ? settle(true) : again(check, FONT_API_CHECK_INTERVAL_MS)),
          () => settle(false),
        );
      };
      check();
    } else {
      const check = () => {
        if (dom.rendersFamily(family, testText)) settle(true);
        else again(check, FONT_MEASURE_CHECK_INTERVAL_MS);
      };
      check();
    }
  });
}

export class FontInactiveError extends Error {
  readonly family: string;
  constructor(family: string) {
    super(`Font ${family} did not load within ${FONT_LOAD_TIMEOUT_MS} ms`);
    this.family = family;
  }
}

/**
 * Loads a font's stylesheet or script, then waits for its faces. Rejects with the stylesheet's or script's error, or
 * a FontInactiveError; the page meanwhile renders with its fallback fonts.
 */
export async function loadFont(dom: FontDom, source: FontSource): Promise<void> {
  if ('stylesheet' in source) await loadStylesheet(dom, source.stylesheet);
  else await loadScript(dom, source.script);
  if (!(await watchFont(dom, source.family, source.testText))) throw new FontInactiveError(source.family);
}

/** The page's side of the loader. */
export function browserFontDom(document: Document): FontDom {
  const fonts = 'fonts' in document ? document.fonts : undefined;
  return {
    addStylesheet: (href, done) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.addEventListener('load', () => done(true), { once: true });
      link.addEventListener(
        'error',
        () => {
          link.remove();
          done(false);
        },
        { once: true },
      );
      document.head.append(link);
    },
    addScript: (src, loaded) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.addEventListener('load', loaded, { once: true });
      document.head.append(script);
      return () => script.remove();
    },
    loadFaces: fonts ? async (font, text) => (await fonts.load(font, text)).length : undefined,
    rendersFamily: (family, text) => {
      const probe = (fontFamily: string) => {
        const span = document.createElement('span');
        span.setAttribute('aria-hidden', 'true');
        span.style.cssText = `position:absolute;left:-9999px;top:-9999px;font-size:300px;white-space:nowrap;font-family:${fontFamily}`;
        span.textContent = text;
        document.body.append(span);
        const width = span.offsetWidth;
        span.remove();
        return width;
      };
      return (
        probe(`${quoted(family)},serif`) !== probe('serif') ||
        probe(`${quoted(family)},sans-serif`) !== probe('sans-serif')
      );
    },
  };
}
