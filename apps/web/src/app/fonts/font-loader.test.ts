import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FONT_API_CHECK_INTERVAL_MS,
  FONT_LOAD_TIMEOUT_MS,
  FONT_MEASURE_CHECK_INTERVAL_MS,
  type FontDom,
  FontInactiveError,
  loadFont,
  loadScript,
  SCRIPT_LOAD_TIMEOUT,
  STYLESHEET_FAILED,
  watchFont,
} from './font-loader.ts';

/** A page whose stylesheet, script and faces do what each test says, and which counts the checks. */
function fakeDom(options: {
  stylesheetLoads?: boolean;
  /** When the script runs (ms after it is added); never when undefined. */
  scriptRunsAfter?: number;
  /** Faces loaded at each check through the font loading API; without it the page has no such API. */
  faces?: () => Promise<number>;
  /** Whether the family measures differently at each check (pages without the font loading API). */
  renders?: () => boolean;
}) {
  const calls = {
    stylesheets: [] as string[],
    scripts: [] as string[],
    removed: 0,
    faceChecks: 0,
    measures: 0,
  };
  const { faces, renders = () => false } = options;
  const dom: FontDom = {
    addStylesheet: (href, done) => {
      calls.stylesheets.push(href);
      queueMicrotask(() => done(options.stylesheetLoads ?? true));
    },
    addScript: (src, loaded) => {
      calls.scripts.push(src);
      if (options.scriptRunsAfter !== undefined) setTimeout(loaded, options.scriptRunsAfter);
      return () => {
        calls.removed += 1;
      };
    },
    rendersFamily: () => {
      calls.measures += 1;
      return renders();
    },
  };
  if (faces) {
    dom.loadFaces = () => {
      calls.faceChecks += 1;
      return faces();
    };
  }
  return { dom, calls };
}

/** Settles the promise's state into a value tests can read while timers are fake. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(state, { value, done: true }),
    (error: unknown) => Object.assign(state, { error, done: true }),
  );
  return state;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('font loading constants (spec 9)', () => {
  it('waits 3 s, checks every 25 ms and 50 ms', () => {
    expect(FONT_LOAD_TIMEOUT_MS).toBe(3_000);
    expect(FONT_API_CHECK_INTERVAL_MS).toBe(25);
    expect(FONT_MEASURE_CHECK_INTERVAL_MS).toBe(50);
  });
});

describe('stylesheet', () => {
  it("rejects with 'Stylesheet failed to load' when the stylesheet fails, before any face check", async () => {
    const { dom, calls } = fakeDom({ stylesheetLoads: false, faces: async () => 1 });
    await expect(loadFont(dom, { family: 'Inter Variable', stylesheet: '/ui-font.css' })).rejects.toThrow(
      STYLESHEET_FAILED,
    );
    expect(calls.stylesheets).toEqual(['/ui-font.css']);
    expect(calls.faceChecks).toBe(0);
  });

  it('resolves once the stylesheet has loaded and its faces are there', async () => {
    const { dom, calls } = fakeDom({ faces: async () => 1 });
    await expect(
      loadFont(dom, { family: 'Inter Variable', stylesheet: '/ui-font.css' }),
    ).resolves.toBeUndefined();
    expect(calls.faceChecks).toBe(1);
  });
});

describe('script', () => {
  it("rejects with 'Script load timeout' after 3 s and removes the script", async () => {
    const { dom, calls } = fakeDom({});
    const state = track(loadScript(dom, '/kit.js'));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS - 1);
    expect(state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.error).toEqual(new Error(SCRIPT_LOAD_TIMEOUT));
    expect(calls.removed).toBe(1);
  });

  it('resolves when the script runs in time, and a late time-out changes nothing', async () => {
    const { dom, calls } = fakeDom({ scriptRunsAfter: FONT_LOAD_TIMEOUT_MS - 1 });
    const state = track(loadScript(dom, '/kit.js'));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS * 2);
    expect(state).toEqual({ value: undefined, done: true });
    expect(calls.removed).toBe(0);
  });

  it("a font from a script that never runs fails with 'Script load timeout'", async () => {
    const { dom } = fakeDom({ faces: async () => 1 });
    const state = track(loadFont(dom, { family: 'Kit', script: '/kit.js' }));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS);
    expect(state.error).toEqual(new Error(SCRIPT_LOAD_TIMEOUT));
  });
});

describe('face checks', () => {
  it('asks the font loading API every 25 ms until the faces are there', async () => {
    let loaded = false;
    const { dom, calls } = fakeDom({ faces: async () => (loaded ? 1 : 0) });
    const state = track(watchFont(dom, 'Inter Variable'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.faceChecks).toBe(1);
    await vi.advanceTimersByTimeAsync(FONT_API_CHECK_INTERVAL_MS * 4);
    expect(calls.faceChecks).toBe(5);
    expect(state.done).toBe(false);
    loaded = true;
    await vi.advanceTimersByTimeAsync(FONT_API_CHECK_INTERVAL_MS);
    expect(state.value).toBe(true);
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS);
    expect(calls.faceChecks).toBe(6);
  });

  it('gives up after 3 s, also when a face download hangs, and when a face fails', async () => {
    const never = fakeDom({ faces: async () => 0 });
    const neverState = track(watchFont(never.dom, 'Inter Variable'));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS - 1);
    expect(neverState.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(neverState.value).toBe(false);
    const checks = never.calls.faceChecks;
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS);
    expect(never.calls.faceChecks).toBe(checks);

    const hanging = fakeDom({ faces: () => new Promise<number>(() => {}) });
    const hangingState = track(watchFont(hanging.dom, 'Inter Variable'));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS);
    expect(hangingState.value).toBe(false);

    const failing = fakeDom({ faces: async () => Promise.reject(new Error('NetworkError')) });
    const failingState = track(watchFont(failing.dom, 'Inter Variable'));
    await vi.advanceTimersByTimeAsync(0);
    expect(failingState.value).toBe(false);
  });

  it('without the font loading API, measures text every 50 ms', async () => {
    let rendered = false;
    const { dom, calls } = fakeDom({ renders: () => rendered });
    const state = track(watchFont(dom, 'Inter Variable'));
    expect(calls.measures).toBe(1);
    await vi.advanceTimersByTimeAsync(FONT_MEASURE_CHECK_INTERVAL_MS - 1);
    expect(calls.measures).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.measures).toBe(2);
    rendered = true;
    await vi.advanceTimersByTimeAsync(FONT_MEASURE_CHECK_INTERVAL_MS);
    expect(state.value).toBe(true);
  });

  it('a font that never shows is inactive after 3 s', async () => {
    const { dom, calls } = fakeDom({});
    const state = track(loadFont(dom, { family: 'Inter Variable', stylesheet: '/ui-font.css' }));
    await vi.advanceTimersByTimeAsync(FONT_LOAD_TIMEOUT_MS - 1);
    expect(state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.error).toBeInstanceOf(FontInactiveError);
    expect(calls.measures).toBe(FONT_LOAD_TIMEOUT_MS / FONT_MEASURE_CHECK_INTERVAL_MS);
  });
});
