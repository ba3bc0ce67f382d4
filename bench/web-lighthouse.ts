/**
 * Lighthouse performance of the web portal against the real server, in Debian's Chromium:
 *   1. the identity server's login page (what `http://demo.app.localhost:{port}/` redirects a signed-out user to),
 *   2. the portal home `/#/home` after signing in as the demo admin (the session lives in the browser's cookies).
 *
 * Each run gets a fresh Chromium (a new temporary profile) started by Playwright with a remote-debugging port;
 * Lighthouse connects to it through its `port` flag. The HTTP cache is emptied before each scored load (cookies
 * stay), so it is a first load. Desktop preset first (Lighthouse's desktop config: `desktopDense4G` throttling,
 * desktop screen; `--runs` per page, the report takes the median), then Lighthouse's default (mobile: slow 4G,
 * 4x CPU; `--mobile-runs` per page) unless `--desktop-only`. Throttling is simulated (Lighthouse's default), so the
 * run itself is not slowed down; one run takes about 10 s, the default plan (8 runs) about 1.5 min.
 *
 * The web app must be built (`npm run build -w @edgeport/web`); the server is started in demo mode with a temporary
 * data directory by bench/support/server.ts and stopped at the end.
 *
 * Usage: node bench/web-lighthouse.ts [--json FILE] [--runs 3] [--mobile-runs 1] [--desktop-only] [--keep-reports DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BrowserContext, chromium, type Request } from '@playwright/test';
import lighthouse, { type Config, desktopConfig, type Flags, type Result } from 'lighthouse';
import { httpRequest, type Target } from './support/oidc.ts';
import { freePort, REPO_ROOT, type RunningServer, startServer } from './support/server.ts';
import type { Finding, LighthouseResults, LighthouseRun } from './support/web-results.ts';

const { values: args } = parseArgs({
  options: {
    json: { type: 'string' },
    /** Lighthouse runs per page with the desktop preset; the report shows the median. */
    runs: { type: 'string', default: '3' },
    /** Runs per page with Lighthouse's default (mobile) settings. */
    'mobile-runs': { type: 'string', default: '1' },
    'desktop-only': { type: 'boolean', default: false },
    'keep-reports': { type: 'string' },
  },
});

const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The whole benchmark must end by then (every step below is bounded too). */
const WATCHDOG_MS = 170_000;
const STEP_TIMEOUT_MS = 30_000;
const LOGIN_PAGE = /\/auth\/realms\/demo\/login-actions\//;

type FormFactor = LighthouseRun['formFactor'];

function log(message: string) {
  process.stderr.write(`[web-lighthouse] ${message}\n`);
}

/** Rejects when `promise` takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Browser = { context: BrowserContext; port: number; close(): Promise<void> };

/**
 * A fresh Chromium with its own temporary profile and a remote-debugging port for Lighthouse. A persistent context
 * is the browser's default context, so the tabs Lighthouse opens share its cookies. No viewport emulation from
 * Playwright: Lighthouse emulates the screen itself.
 */
async function launchBrowser(): Promise<Browser> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'edgeport-lighthouse-'));
  const context = await within(
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: null,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    }),
    STEP_TIMEOUT_MS,
    'starting Chromium',
  );
  return {
    context,
    port,
    close: async () => {
      await within(context.close(), STEP_TIMEOUT_MS, 'closing Chromium').catch((error: unknown) =>
        log(`closing Chromium: ${String(error)}`),
      );
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the portal signed out and returns the authorization URL keycloak-js redirects to (which the identity server
 * answers with a redirect to its login page). Lighthouse scores that URL: the portal's own client-side redirect
 * before it is not part of what a user waits for on the login page.
 */
async function authorizationUrl(browser: Browser, server: RunningServer): Promise<string> {
  const page = await browser.context.newPage();
  try {
    let authUrl: string | undefined;
    page.on('request', (request: Request) => {
      if (
        !authUrl &&
        request.isNavigationRequest() &&
        request.url().includes('/protocol/openid-connect/auth')
      )
        authUrl = request.url();
    });
    await page.goto(`${server.realmOrigin}/`, { timeout: STEP_TIMEOUT_MS });
    await page.waitForURL(LOGIN_PAGE, { timeout: STEP_TIMEOUT_MS });
    await page.locator('#kc-form-login').waitFor({ timeout: STEP_TIMEOUT_MS });
    if (!authUrl) throw new Error('the portal did not redirect to the authorization endpoint');
    return authUrl;
  } finally {
    await page.close();
  }
}

/**
 * Empties the HTTP cache (not the cookies): each scored load is a first load, as for a new visitor, while the
 * signed-in run keeps its session. (Lighthouse's own storage reset would delete the cookies too.)
 */
async function clearHttpCache(browser: Browser): Promise<void> {
  const page = await browser.context.newPage();
  try {
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  } finally {
    await page.close();
  }
}

/** Signs the demo admin in through the real login form and waits until the portal shows its shell. */
async function signIn(browser: Browser, server: RunningServer): Promise<void> {
  const admin = server.logins.find((login) => login.email.startsWith('admin@'));
  if (!admin) throw new Error(`the server printed no admin login (${server.logins.map((l) => l.email)})`);
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.realmOrigin}/#/home`, { timeout: STEP_TIMEOUT_MS });
    await page.waitForURL(LOGIN_PAGE, { timeout: STEP_TIMEOUT_MS });
    await page.locator('#username').fill(admin.email);
    await page.locator('#password').fill(admin.password);
    await page.locator('#kc-login').click();
    await page.waitForURL((url) => !LOGIN_PAGE.test(url.href), { timeout: STEP_TIMEOUT_MS });
    await page.getByTestId('user-menu').waitFor({ timeout: STEP_TIMEOUT_MS });
    log(`signed in as ${admin.email}, on ${page.url()}`);
  } finally {
    await page.close();
  }
}

type RedirectItem = { url?: unknown; wastedMs?: unknown };

/** Path and hash of a URL, its query as `?…` and long random path segments (login-action ids) as `…`. */
function shortUrl(href: string): string {
  const url = new URL(href);
  const pathname = url.pathname.replace(/\/[\w-]{24,}(?=\/|$)/g, '/…');
  return `${pathname}${url.search ? '?…' : ''}${url.hash}`;
}

/** The redirects before the final page (path and query keys only), and the time Lighthouse attributes to them. */
function redirects(lhr: Result): LighthouseRun['redirects'] {
  const details = lhr.audits.redirects?.details;
  const items = details && 'items' in details && Array.isArray(details.items) ? details.items : [];
  const hops = (items as RedirectItem[]).flatMap((item) =>
    typeof item.url === 'string' ? [shortUrl(item.url)] : [],
  );
  const savings =
    details && 'overallSavingsMs' in details && typeof details.overallSavingsMs === 'number'
      ? details.overallSavingsMs
      : 0;
  return { hops, ms: Math.round(savings) };
}

function numeric(lhr: Result, id: string): number | null {
  const value = lhr.audits[id]?.numericValue;
  return typeof value === 'number' ? value : null;
}

type SummaryItem = { resourceType?: string; requestCount?: number; transferSize?: number };

function resourceSummary(lhr: Result, type: string): SummaryItem | undefined {
  const details = lhr.audits['resource-summary']?.details;
  const items = details && 'items' in details && Array.isArray(details.items) ? details.items : [];
  return (items as SummaryItem[]).find((item) => item.resourceType === type);
}

/**
 * What Lighthouse blames: the performance category's audits (insights, diagnostics and the hidden ones such as
 * `redirects`) that did not pass, the ones with the largest estimated savings (time first, then bytes) first.
 */
function findings(lhr: Result): Finding[] {
  const scored = new Set(['metricSavings', 'numeric', 'binary']);
  const failing = (lhr.categories.performance?.auditRefs ?? [])
    // bf-cache fails only because Playwright's Chromium flags disable the back/forward cache ("not actionable").
    .filter((ref) => ref.group !== 'metrics' && ref.id !== 'bf-cache')
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (audit): audit is NonNullable<typeof audit> =>
        audit !== undefined &&
        audit.score !== null &&
        audit.score < 0.9 &&
        scored.has(audit.scoreDisplayMode),
    );
  const savings = (audit: (typeof failing)[number]) => {
    const metrics = audit.metricSavings ?? {};
    const ms = Math.max(metrics.LCP ?? 0, metrics.FCP ?? 0, metrics.TBT ?? 0);
    const details = audit.details;
    const bytes =
      details && 'overallSavingsBytes' in details && typeof details.overallSavingsBytes === 'number'
        ? details.overallSavingsBytes
        : 0;
    return ms * 1_000_000 + bytes;
  };
  return failing
    .sort((a, b) => savings(b) - savings(a) || (a.score ?? 0) - (b.score ?? 0))
    .slice(0, 8)
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      score: audit.score,
      ...(audit.displayValue ? { displayValue: audit.displayValue.replaceAll('\u00a0', ' ') } : {}),
    }));
}

async function runLighthouse(
  browser: Browser,
  pageName: string,
  url: string,
  formFactor: FormFactor,
): Promise<LighthouseRun> {
  const started = Date.now();
  const flags: Flags = {
    port: browser.port,
    hostname: '127.0.0.1',
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance'],
    // The signed-in run needs the session cookies of this browser (the HTTP cache was emptied before).
    disableStorageReset: true,
    maxWaitForLoad: 45_000,
  };
  const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
  log(`${formFactor} ${pageName}: ${shortUrl(url)}`);
  const result = await within(lighthouse(url, flags, config), 90_000, `Lighthouse on ${url}`);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (args['keep-reports']) {
    mkdirSync(args['keep-reports'], { recursive: true });
    writeFileSync(
      path.join(args['keep-reports'], `${formFactor}-${pageName}-${Date.now()}.json`),
      JSON.stringify(lhr),
    );
  }
  const score = lhr.categories.performance?.score;
  const scripts = resourceSummary(lhr, 'script');
  const run: LighthouseRun = {
    page: pageName,
    formFactor,
    requestedUrl: shortUrl(lhr.requestedUrl ?? url),
    finalUrl: shortUrl(lhr.finalDisplayedUrl),
    score: typeof score === 'number' ? Math.round(score * 100) : null,
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    scriptTransferBytes: scripts?.transferSize ?? null,
    scriptRequests: scripts?.requestCount ?? null,
    totalTransferBytes: resourceSummary(lhr, 'total')?.transferSize ?? null,
    redirects: redirects(lhr),
    findings: findings(lhr),
    ...(lhr.runtimeError ? { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
    warnings: lhr.runWarnings.map(String),
    durationMs: Date.now() - started,
  };
  log(
    `  score ${run.score}, FCP ${run.fcpMs?.toFixed(0)} ms, LCP ${run.lcpMs?.toFixed(0)} ms, TBT ${run.tbtMs?.toFixed(0)} ms, CLS ${run.cls?.toFixed(3)}, JS ${((run.scriptTransferBytes ?? 0) / 1024).toFixed(1)} KiB (${run.durationMs} ms)`,
  );
  return run;
}

/** How the server delivers the entry script: compression and caching headers (Lighthouse's byte counts follow them). */
async function assetHeaders(server: RunningServer): Promise<LighthouseResults['assetHeaders']> {
  const html = await httpRequest(targetOf(server), { path: '/' });
  const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html.body)?.[1];
  if (!entry) throw new Error('index.html names no module script');
  const asset = await httpRequest(targetOf(server), {
    path: entry,
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
  });
  return {
    path: entry,
    contentEncoding: String(asset.headers['content-encoding'] ?? 'none'),
    cacheControl: String(asset.headers['cache-control'] ?? 'none'),
  };
}

function targetOf(server: RunningServer): Target {
  return { port: server.port, realmHost: server.realmHost, realmOrigin: server.realmOrigin, realm: 'demo' };
}

async function main(): Promise<LighthouseResults> {
  const started = Date.now();
  if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html')))
    throw new Error('apps/web/dist is missing: build the web app first (npm run build -w @edgeport/web)');
  const runsPer: Record<FormFactor, number> = {
    desktop: positiveInt(args.runs, '--runs'),
    mobile: args['desktop-only'] ? 0 : positiveInt(args['mobile-runs'], '--mobile-runs'),
  };
  const loadAverage1m = round2(os.loadavg()[0] ?? 0);
  const server = await startServer();
  log(`server on port ${server.port} (pid ${server.pid})`);
  const runs: LighthouseRun[] = [];
  let chromiumVersion = '';
  let headers: LighthouseResults['assetHeaders'];
  try {
    headers = await assetHeaders(server);
    let authUrl: string | undefined;
    for (const formFactor of ['desktop', 'mobile'] as const) {
      for (let round = 0; round < runsPer[formFactor]; round++) {
        for (const pageName of ['login', 'home']) {
          const browser = await launchBrowser();
          try {
            chromiumVersion ||= browser.context.browser()?.version() ?? '';
            let url: string;
            if (pageName === 'login') {
              authUrl ??= await authorizationUrl(browser, server);
              url = authUrl;
            } else {
              await signIn(browser, server);
              url = `${server.realmOrigin}/#/home`;
            }
            await clearHttpCache(browser);
            runs.push(await runLighthouse(browser, pageName, url, formFactor));
          } finally {
            await browser.close();
          }
        }
      }
    }
  } finally {
    await server.stop();
  }
  return {
    date: new Date().toISOString(),
    lighthouseVersion: lighthouseVersionOf(),
    chromium: chromiumVersion,
    throttling: {
      desktop: describeThrottling(desktopConfig),
      mobile:
        "Lighthouse's default (mobile): simulated slow 4G (150 ms RTT, 1.6 Mbit/s), CPU x4, 412x823 screen",
    },
    assetHeaders: headers,
    machine: { nproc: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? 'unknown', loadAverage1m },
    runs,
    totalSeconds: round2((Date.now() - started) / 1000),
  };
}

function positiveInt(value: string | undefined, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 10)
    throw new Error(`${name} must be 1-10: ${value}`);
  return parsed;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function describeThrottling(config: Config): string {
  const throttling = config.settings?.throttling;
  if (!throttling) return 'desktop preset';
  return `Lighthouse desktop preset (simulated desktopDense4G: ${throttling.rttMs} ms RTT, ${((throttling.throughputKbps ?? 0) / 1024).toFixed(0)} Mbit/s, CPU x${throttling.cpuSlowdownMultiplier}; 1350x940 screen)`;
}

function lighthouseVersionOf(): string {
  const file = path.join(REPO_ROOT, 'node_modules/lighthouse/package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

const watchdog = setTimeout(() => {
  log(`still running after ${WATCHDOG_MS / 1000} s: giving up`);
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

try {
  const results = await main();
  const json = `${JSON.stringify(results, null, 2)}\n`;
  if (args.json) writeFileSync(args.json, json);
  else process.stdout.write(json);
  const failed = results.runs.filter((run) => run.score === null || run.runtimeError);
  if (failed.length) {
    log(`Lighthouse could not score: ${failed.map((run) => `${run.formFactor} ${run.page}`).join(', ')}`);
    process.exitCode = 1;
  }
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
}
clearTimeout(watchdog);
