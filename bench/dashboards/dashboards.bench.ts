/**
 * Dashboard benchmarks (issue 6), in Debian's Chromium against the browser tests' server (PGlite, embedded broker):
 *
 * 1. Live load: the viewer of a 50-widget dashboard (values, gauges, line charts) while its device publishes all 50
 *    bound values 10 times a second over MQTT. Main-thread busy = Chromium's own task time (CDP `Performance`
 *    `TaskDuration`) over wall time; input latency = pointer-down → the next frame, for clicks on the viewer's
 *    controls during the load. Targets: busy < 50 %, input latency < 100 ms.
 * 2. First frame: in-app navigation to a 100-widget dashboard → the first frame with all 100 widgets on screen
 *    (document fetched, page module loaded, widgets rendered). Target: < 500 ms.
 * 3. Undo/redo: 1,000 edits in the editor (paste, delete), then 1,000 × Ctrl+Z and 1,000 × Ctrl+Shift+Z, three runs
 *    (UNDO_RUNS), with the keys back to back and again at a held key's repeat rate (PACES); each keystroke's time from
 *    the key event to the update being committed (the canvas's DOM has the widget added or removed). Target: each
 *    < 16 ms, in every run. Also reported: the step's own work (the same without the key's wait for the main thread
 *    before its first handler), key → the start of the frame that paints it, and each step over the limit with how
 *    long its key waited.
 *
 * `npx playwright test --config bench/dashboards/playwright.config.ts` (build the web first). NO_WRITE=1 prints only.
 */
import os from 'node:os';
import { expect, type Page, test } from '@playwright/test';
import mqtt from 'mqtt';
import { e2eMqttPort } from '../../apps/web/e2e/support/environment.ts';
import { signInAs } from '../../apps/web/e2e/support/portal.ts';
import { PORTAL_ACCESS, seedTenant, type Tenant } from '../../apps/web/e2e/support/seed.ts';
import { writeSection } from '../support/results-file.ts';
import { percentile, round } from '../support/stats.ts';
import { BENCH_PATHS, benchDocument } from './documents.ts';

const WIDGET = '[data-widget-id]';
const EDITOR_WIDGET = '[data-testid^="canvas-widget-"]';
const LIVE_SECONDS = Number(process.env.LIVE_SECONDS ?? 20);
const FIRST_FRAME_RUNS = Number(process.env.FIRST_FRAME_RUNS ?? 7);
const UNDO_STEPS = Number(process.env.UNDO_STEPS ?? 1000);
/** Runs of UNDO_STEPS undos then redos (each after UNDO_STEPS new edits): the target holds only if every run meets it. */
const UNDO_RUNS = Number(process.env.UNDO_RUNS ?? 3);
/** An undo/redo step is instant below this (one frame at 60 Hz). */
const STEP_LIMIT_MS = 16;
/**
 * How the undo/redo keys come: as fast as Playwright sends them (one every 10–14 ms, more than one a frame: a backlog
 * the 2-core machine must also run the compositor, raster, the browser process and Playwright beside), and at the
 * rate a held Ctrl+Z repeats (the desktops' default key repeat is 25–33 a second; 30 here).
 */
type Pace = { label: string; intervalMs: number };
const PACES: readonly Pace[] = [
  { label: 'keys back to back', intervalMs: 0 },
  { label: 'keys at 30 a second (a held key)', intervalMs: 1000 / 30 },
];
/** Which parts run (comma-separated `live,first-frame,undo`); all by default. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'live,first-frame,undo').split(','));

type Results = { rows: string[] };
const results: Results = { rows: [] };

/** What the page keeps on `window` (bench scripts compile without the DOM library). */
type Probe = { latencies: number[]; steps: number[]; waits: number[]; frames: number[] };
type Win = typeof globalThis & { probe: Probe };

async function seed(page: Page): Promise<{ tenant: Tenant; device: { id: string; password?: string } }> {
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Bench plant' }],
    users: [
      {
        key: 'designer',
        memberships: [
          {
            org: 'org',
            permissions: [
              PORTAL_ACCESS,
              { rsname: 'devices', scopes: ['READ'] },
              { rsname: 'models', scopes: ['READ'] },
              { rsname: 'dashboards', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
            ],
          },
        ],
      },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Line',
        paths: BENCH_PATHS.map((path) => ({ path, type: 'number' as const })),
        preset: 'Line PLC',
        devices: ['Line 1'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
    dashboards: [
      { name: 'Fifty live widgets', owner: 'designer', document: benchDocument(50) },
      { name: 'A hundred widgets', owner: 'designer', document: benchDocument(100) },
    ],
  });
  const device = tenant.telemetryDevices['Line 1'];
  if (!device?.password) throw new Error('the fixture issued no credentials');
  return { tenant, device };
}

function publishAt10Hz(device: { id: string; password?: string }) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${e2eMqttPort()}`, {
    clientId: device.id,
    username: device.id,
    password: device.password ?? '',
    protocolVersion: 4,
  });
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    const values = Object.fromEntries(
      BENCH_PATHS.map((path, index) => [
        path.slice(1).replaceAll('/', '_'),
        50 + 40 * Math.sin((tick + index) / 10),
      ]),
    );
    client.publish(`devices/${device.id}/data`, JSON.stringify({ ts: Date.now(), values }), { qos: 0 });
  }, 100);
  return () => {
    clearInterval(timer);
    client.end(true);
  };
}

/** Another route of the portal by its address, in the page already signed in (as the address bar's hash would). */
async function navigateInApp(page: Page, route: string) {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#${route}`)}`);
}

type Device = { id: string; password?: string };

/** 1. Live load. */
async function liveLoad(page: Page, live: string, slot: string, device: Device) {
  await navigateInApp(page, `/dashboards/${live}?${slot}`);
  await expect(page.locator(WIDGET)).toHaveCount(50);
  const stop = publishAt10Hz(device);
  try {
    await expect(page.locator(WIDGET).first()).not.toContainText('No value', { timeout: 10_000 });
    await page.waitForTimeout(3000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskSeconds = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
    };
    await page.evaluate(() => {
      const win = globalThis as Win;
      win.probe = { latencies: [], steps: [], waits: [], frames: [] };
      const target = globalThis as unknown as {
        addEventListener(
          type: string,
          listener: (event: { timeStamp: number }) => void,
          capture: boolean,
        ): void;
        requestAnimationFrame(callback: (time: number) => void): void;
        performance: { now(): number };
      };
      target.addEventListener(
        'pointerdown',
        (event) =>
          target.requestAnimationFrame(() =>
            win.probe.latencies.push(target.performance.now() - event.timeStamp),
          ),
        true,
      );
    });
    const startedTask = await taskSeconds();
    const startedAt = Date.now();
    const controls = page.getByRole('tab');
    while (Date.now() - startedAt < LIVE_SECONDS * 1000) {
      await page.waitForTimeout(700);
      await controls.first().click();
    }
    const busy = (await taskSeconds()) - startedTask;
    const wall = (Date.now() - startedAt) / 1000;
    const latencies = await page.evaluate(() => (globalThis as Win).probe.latencies);
    const sorted = [...latencies].sort((a, b) => a - b);
    const busyPercent = (100 * busy) / wall;
    results.rows.push(
      `| 50 widgets, 50 values at 10 Hz: main thread busy (${LIVE_SECONDS} s) | ${round(busyPercent)} % | < 50 % | ${busyPercent < 50 ? 'yes' : 'no'} |`,
      `| … input latency pointer-down → next frame p50 / p95 / max (${sorted.length} clicks) | ${round(percentile(sorted, 50))} / ${round(percentile(sorted, 95))} / ${round(sorted.at(-1) ?? 0)} ms | < 100 ms | ${(sorted.at(-1) ?? 0) < 100 ? 'yes' : 'no'} |`,
    );
  } finally {
    stop();
  }
}

/** 2. First frame of a 100-widget dashboard, by in-app navigation (the portal is loaded, the dashboard is not). */
async function firstFrame(page: Page, big: string, slot: string) {
  const firstFrames: number[] = [];
  for (let run = 0; run < FIRST_FRAME_RUNS; run++) {
    await navigateInApp(page, `/flows/dashboards`);
    await expect(page.getByText('A hundred widgets')).toBeVisible();
    const elapsed = await page.evaluate(
      ({ id, query, selector }) =>
        new Promise<number>((resolve) => {
          const g = globalThis as unknown as {
            location: { hash: string };
            performance: { now(): number };
            requestAnimationFrame(callback: () => void): void;
            setTimeout(callback: () => void, ms: number): void;
            document: { querySelectorAll(selector: string): { length: number } };
          };
          const started = g.performance.now();
          const poll = () => {
            if (g.document.querySelectorAll(selector).length >= 100) {
              // The frame that shows them: the next animation frame, then the task after it (paint done).
              g.requestAnimationFrame(() => g.setTimeout(() => resolve(g.performance.now() - started), 0));
            } else g.requestAnimationFrame(poll);
          };
          g.location.hash = `#/dashboards/${id}?${query}`;
          g.requestAnimationFrame(poll);
        }),
      { id: big, query: slot, selector: WIDGET },
    );
    firstFrames.push(elapsed);
  }
  const frames = [...firstFrames].sort((a, b) => a - b);
  results.rows.push(
    `| 100-widget dashboard, navigation → first frame with all widgets, median / max (${frames.length} runs) | ${round(percentile(frames, 50))} / ${round(frames.at(-1) ?? 0)} ms | < 500 ms | ${(frames.at(-1) ?? 0) < 500 ? 'yes' : 'no'} |`,
  );
}

/** 3. Undo/redo of 1,000 steps in the editor. */
async function undoRedo(page: Page, live: string, slot: string) {
  await navigateInApp(page, `/dashboards/${live}/edit?${slot}`);
  await expect(page.locator(EDITOR_WIDGET)).toHaveCount(50);
  await page.locator(EDITOR_WIDGET).first().click();
  await page.keyboard.press('Control+c');
  // Each paste lands (it reads the clipboard asynchronously) before the Delete that removes it, so that the history
  // ends with exactly UNDO_STEPS steps.
  const widgets = page.locator(EDITOR_WIDGET);
  const edit = async () => {
    for (let step = 0; step < UNDO_STEPS / 2; step++) {
      await page.keyboard.press('Control+v');
      await expect(widgets).toHaveCount(51);
      await page.keyboard.press('Delete');
      await expect(widgets).toHaveCount(50);
    }
  };
  await page.evaluate(() => {
    const win = globalThis as Win;
    win.probe = { latencies: [], steps: [], waits: [], frames: [] };
    const g = globalThis as unknown as {
      addEventListener(
        type: string,
        listener: (event: { timeStamp: number; key: string }) => void,
        capture: boolean,
      ): void;
      requestAnimationFrame(callback: () => void): void;
      performance: { now(): number };
      document: { querySelector(selector: string): unknown };
      MutationObserver: new (
        callback: (
          records: {
            target: { classList?: { contains(name: string): boolean } };
            addedNodes: { length: number };
            removedNodes: { length: number };
          }[],
        ) => void,
      ) => { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void };
    };
    // The Z of Ctrl+Z / Ctrl+Shift+Z (the modifiers' own key events do nothing), seen before any handler; how long
    // it waited for the main thread (busy with the frame before, a collection, or not running) is noted too.
    const pending: number[] = [];
    g.addEventListener(
      'keydown',
      (event) => {
        if (event.key.toLowerCase() !== 'z') return;
        pending.push(event.timeStamp);
        win.probe.waits.push(g.performance.now() - event.timeStamp);
      },
      true,
    );
    // Committed = the widget the step adds or removes is in or out of the grid's DOM: the observer runs right after the
    // commit that does it (both are microtasks of the key's task). Each grid child added or removed answers the oldest
    // key still waiting, so a commit that came a task late is counted from its own key, and a step whose widget never
    // reached the DOM leaves a key unanswered (checked below). Then the time to the start of the frame that paints it.
    new g.MutationObserver((records) => {
      for (const record of records) {
        if (!record.target.classList?.contains('react-grid-layout')) continue;
        for (let change = record.addedNodes.length + record.removedNodes.length; change > 0; change--) {
          const keyAt = pending.shift();
          if (keyAt === undefined) return;
          win.probe.steps.push(g.performance.now() - keyAt);
          g.requestAnimationFrame(() => win.probe.frames.push(g.performance.now() - keyAt));
        }
      }
    }).observe(g.document.querySelector('[data-testid="editor-canvas"]'), { childList: true, subtree: true });
  });
  const steps = async () =>
    page.evaluate(() => {
      const { probe } = globalThis as Win;
      return {
        committed: probe.steps.splice(0),
        waits: probe.waits.splice(0),
        frames: probe.frames.splice(0),
      };
    });
  // Each run starts on a collected heap: the set-up's garbage (1,000 edits, this script's polling in the page) is not
  // the steps' own work. Nor is the collection's own follow-up (sweeping tasks): the first key waits for an idle period
  // (one run's first step once waited 20 ms behind it).
  const settled = () =>
    page.evaluate(
      () =>
        new Promise((resolve) =>
          (globalThis as unknown as { requestIdleCallback(callback: () => void): void }).requestIdleCallback(
            () => resolve(null),
          ),
        ),
    );
  const cdp = await page.context().newCDPSession(page);
  type Pass = {
    committed: number[];
    own: number[];
    frames: number[];
    over: string[];
    met: number;
    ownMet: number;
  };
  const passes = new Map<string, Pass>();
  const passOf = (pace: Pace, name: string) => {
    const key = `${name}, ${pace.label}`;
    const known = passes.get(key);
    if (known) return known;
    const pass: Pass = { committed: [], own: [], frames: [], over: [], met: 0, ownMet: 0 };
    passes.set(key, pass);
    return pass;
  };
  for (let run = 0; run < UNDO_RUNS; run++) {
    await edit();
    // Undoing everything then redoing everything leaves the history as the edits made it, for the next pace.
    for (const pace of PACES) {
      for (const [name, key] of [
        ['undo', 'Control+z'],
        ['redo', 'Control+Shift+z'],
      ] as const) {
        await cdp.send('HeapProfiler.collectGarbage');
        await settled();
        await pressSteps(page, key, pace.intervalMs);
        const { committed, waits, frames } = await steps();
        // Every step changed the canvas; undoing everything and redoing everything both end on 50 widgets.
        expect(committed).toHaveLength(UNDO_STEPS);
        await expect(widgets).toHaveCount(50);
        const pass = passOf(pace, name);
        const waited = (step: number) => waits[step] ?? 0;
        // The step's own work: from its key's first handler to the commit, without the wait for the main thread.
        const own = committed.map((ms, step) => ms - waited(step));
        pass.committed.push(...committed);
        pass.own.push(...own);
        pass.frames.push(...frames);
        committed.forEach((ms, step) => {
          if (ms >= STEP_LIMIT_MS) pass.over.push(`${round(ms)} (waited ${round(waited(step))})`);
        });
        if (Math.max(...committed) < STEP_LIMIT_MS) pass.met += 1;
        if (Math.max(...own) < STEP_LIMIT_MS) pass.ownMet += 1;
      }
    }
  }
  // percentile() sorts a copy of its sample itself; its 100th is the maximum.
  const at = (values: readonly number[], ...qs: number[]) =>
    qs.map((q) => round(percentile(values, q))).join(' / ');
  for (const [label, { committed, own, frames, over, met, ownMet }] of passes) {
    results.rows.push(
      `| ${label}: ${UNDO_RUNS} runs of ${UNDO_STEPS} steps (editor, 50 widgets), key → update committed p50 / p95 / p99 / max | ${at(committed, 50, 95, 99, 100)} ms; runs with every step < ${STEP_LIMIT_MS} ms: ${met} of ${UNDO_RUNS} | each < ${STEP_LIMIT_MS} ms | ${met === UNDO_RUNS ? 'yes' : 'no'} |`,
      `| … the step's own work (first handler → committed, without the key's wait) p99 / max | ${at(own, 99, 100)} ms; runs with every step < ${STEP_LIMIT_MS} ms: ${ownMet} of ${UNDO_RUNS} | — | — |`,
      `| … key → start of the frame that paints it p50 / p95 / max | ${at(frames, 50, 95, 100)} ms | — | — |`,
      `| … steps of ${STEP_LIMIT_MS} ms or more (of which the key waited for the main thread before any handler ran) | ${over.length === 0 ? 'none' : `${over.join(', ')} ms`} | — | — |`,
    );
  }
}

/** Presses `key` UNDO_STEPS times, each press starting `intervalMs` after the one before (0: right after it). */
async function pressSteps(page: Page, key: string, intervalMs: number) {
  let next = Date.now();
  for (let step = 0; step < UNDO_STEPS; step++) {
    next += intervalMs;
    await page.keyboard.press(key);
    const rest = next - Date.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
}

test('dashboards: live load, first frame, undo/redo', async ({ page }) => {
  test.setTimeout(900_000);
  const { tenant, device } = await seed(page);
  const live = tenant.dashboards['Fifty live widgets'] ?? '';
  const big = tenant.dashboards['A hundred widgets'] ?? '';
  await signInAs(page, tenant, 'designer', '/flows/dashboards');
  await expect(page.getByText('A hundred widgets')).toBeVisible();
  const slot = `ecc_device_main=${device.id}`;

  if (PARTS.has('live')) await liveLoad(page, live, slot, device);
  if (PARTS.has('first-frame')) await firstFrame(page, big, slot);
  if (PARTS.has('undo')) await undoRedo(page, live, slot);

  const body = [
    '## Dashboards (Chromium, the real portal)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${os.cpus().length} cores, load ${round(os.loadavg()[0] ?? 0)}) by \`npx playwright test --config bench/dashboards/playwright.config.ts\`: the browser tests' server (PGlite, embedded broker) and the real viewer and editor in Debian's Chromium (headless), signed in as a designer.`,
    '',
    '| measurement | result | limit | met |',
    '| --- | --- | --- | --- |',
    ...results.rows,
  ].join('\n');
  if (!process.env.NO_WRITE) writeSection('dashboards', body);
  console.log(body);
});
