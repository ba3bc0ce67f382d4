/**
 * Renders the JSON of bench/web-bundle.ts and bench/web-lighthouse.ts as the web section of bench/RESULTS.md (the
 * other sections are kept).
 * Usage: node bench/support/web-report.ts BUNDLE.json LIGHTHOUSE.json [RESULTS.md]
 */
import { readFileSync } from 'node:fs';
import { writeSection } from './results-file.ts';
import { round } from './stats.ts';
import {
  type BundleResults,
  type LighthouseResults,
  type LighthouseRun,
  WEB_TARGETS,
} from './web-results.ts';

const yesNo = (met: boolean) => (met ? '**yes**' : '**no**');
const kib = (bytes: number | null) => (bytes === null ? '—' : `${round(bytes / 1024, 1)} KiB`);
const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);
const escapePipes = (text: string) => text.replaceAll('|', '\\|');

type Group = {
  page: string;
  formFactor: LighthouseRun['formFactor'];
  runs: LighthouseRun[];
  median: LighthouseRun;
};

/** Runs of one page and form factor; the median is the run with the median score (lower middle for even counts). */
function groups(runs: LighthouseRun[]): Group[] {
  const byKey = new Map<string, LighthouseRun[]>();
  for (const run of runs) {
    const key = `${run.formFactor} ${run.page}`;
    byKey.set(key, [...(byKey.get(key) ?? []), run]);
  }
  return [...byKey.values()].flatMap((list) => {
    const sorted = [...list].sort((a, b) => (a.score ?? -1) - (b.score ?? -1));
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const first = list[0];
    return median && first ? [{ page: first.page, formFactor: first.formFactor, runs: list, median }] : [];
  });
}

const PAGE_NAMES: Record<string, string> = {
  login: 'Login page (identity server)',
  home: 'Portal home after sign-in (`/#/home`)',
};

export function renderWeb(bundle: BundleResults, lighthouse: LighthouseResults): string {
  const all = groups(lighthouse.runs);
  const desktop = all.filter((group) => group.formFactor === 'desktop');
  const mobile = all.filter((group) => group.formFactor === 'mobile');
  const [shell, toHome, withSelector] = bundle.paths;
  if (!shell || !toHome || !withSelector) throw new Error('the bundle results lack a path');
  const maxKib = WEB_TARGETS.firstLoadKib;
  const scoreText = (group: Group) =>
    group.runs.length > 1
      ? `${group.median.score ?? '—'} (median of ${group.runs.map((run) => run.score ?? '—').join(', ')})`
      : `${group.median.score ?? '—'}`;
  const metLighthouse = (group: Group) => (group.median.score ?? 0) >= WEB_TARGETS.lighthouseScore;

  const summary = [
    '| Metric | Measured | Target | Met |',
    '| --- | --- | --- | --- |',
    `| First-load JS, login → /home (one organization), gzipped | ${kib(toHome.gzipBytes)} | ≤ ${maxKib} KiB | ${yesNo(toHome.gzipBytes <= maxKib * 1024)} |`,
    `| First-load JS, login → organization selector → /home, gzipped | ${kib(withSelector.gzipBytes)} | ≤ ${maxKib} KiB | ${yesNo(withSelector.gzipBytes <= maxKib * 1024)} |`,
    `| First-load JS, shell alone (entry + static imports), gzipped | ${kib(shell.gzipBytes)} | — | — |`,
    ...desktop.map(
      (group) =>
        `| Lighthouse performance, ${PAGE_NAMES[group.page] ?? group.page}, desktop | ${scoreText(group)} | ≥ ${WEB_TARGETS.lighthouseScore} | ${yesNo(metLighthouse(group))} |`,
    ),
    ...mobile.map(
      (group) =>
        `| Lighthouse performance, ${PAGE_NAMES[group.page] ?? group.page}, mobile (Lighthouse default) | ${scoreText(group)} | — (reported only) | — |`,
    ),
  ];

  const metrics = [
    '| Page | Form factor | Score | FCP | LCP | TBT | CLS | Speed Index | JS transferred (requests) | All transferred | Redirects (Lighthouse’s time for them) | Final URL |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...all.map(({ median: run, formFactor, page }) =>
      [
        '',
        PAGE_NAMES[page] ?? page,
        formFactor,
        run.score ?? '—',
        ms(run.fcpMs),
        ms(run.lcpMs),
        ms(run.tbtMs),
        run.cls === null ? '—' : round(run.cls, 3),
        ms(run.speedIndexMs),
        `${kib(run.scriptTransferBytes)} (${run.scriptRequests ?? '—'})`,
        kib(run.totalTransferBytes),
        run.redirects.hops.length ? `${run.redirects.hops.length - 1} (${run.redirects.ms} ms)` : '—',
        `\`${escapePipes(run.finalUrl)}\``,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ];

  const maxScript = Math.max(0, ...all.map((group) => group.median.scriptTransferBytes ?? 0));
  const blamed = all.filter((group) => (group.median.score ?? 0) < WEB_TARGETS.lighthouseScore);
  const blame = blamed.length
    ? [
        `Failing audits of the median run of every page under ${WEB_TARGETS.lighthouseScore}, largest estimated savings first`,
        '(Lighthouse estimates the savings on its simulated network; it counts bytes as transferred):',
        '',
        ...blamed.flatMap((group) => [
          `- **${PAGE_NAMES[group.page] ?? group.page}, ${group.formFactor}** (score ${group.median.score ?? '—'}):`,
          ...group.median.findings.map(
            (finding) =>
              `  - ${finding.title}${finding.displayValue ? `: ${finding.displayValue}` : ''} (\`${finding.id}\`)`,
          ),
          ...(group.median.redirects.hops.length > 1
            ? [
                `  - The load is a redirect chain: ${[group.median.requestedUrl, ...group.median.redirects.hops.slice(1, -1), group.median.finalUrl].map((hop) => `\`${hop}\``).join(' → ')} (Lighthouse attributes ${group.median.redirects.ms} ms to the redirects).`,
              ]
            : []),
          ...(group.median.runtimeError ? [`  - Runtime error: ${group.median.runtimeError}`] : []),
        ]),
        '',
      ]
    : [`Every page scored at least ${WEB_TARGETS.lighthouseScore}.`, ''];

  const lazy = [
    '| Chunk (source) | Own size, gzipped | Added on top of the shell | On the login → home path |',
    '| --- | --- | --- | --- |',
    ...bundle.lazy.map(
      (chunk) =>
        `| \`${chunk.source}\` | ${kib(chunk.gzipBytes)} | ${kib(chunk.addedGzipBytes)} | ${chunk.onHomePath ? 'yes' : '—'} |`,
    ),
  ];

  return [
    '## Web: first load and Lighthouse',
    '',
    'Generated by `npm run bench:web` (`bench/web.sh` → `bench/web-bundle.ts`, `bench/web-lighthouse.ts`), also run by `npm run bench`.',
    '',
    `- **Date:** ${lighthouse.date}`,
    `- **Machine:** nproc ${lighthouse.machine.nproc} (${lighthouse.machine.cpuModel}); load average (1 min) before the Lighthouse runs: ${lighthouse.machine.loadAverage1m}`,
    `- **Browser:** Debian Chromium ${lighthouse.chromium || '(unknown version)'}, headless, a fresh profile per run; Lighthouse ${lighthouse.lighthouseVersion}, performance category only`,
    '- **Server:** `apps/server/start.sh` (what `npm start` runs: the bundle with its process settings), demo mode, fresh temporary DATA_DIR, serving the production build of `apps/web` (`npm run build`, precompressed)',
    `- **Whole Lighthouse run:** ${lighthouse.totalSeconds} s`,
    '',
    '### Summary',
    '',
    ...summary,
    '',
    '### Lighthouse metrics (median run)',
    '',
    ...metrics,
    '',
    `- **Desktop:** ${lighthouse.throttling.desktop}.`,
    `- **Mobile:** ${lighthouse.throttling.mobile}.`,
    `- **Delivery:** the entry script comes with \`Content-Encoding: ${lighthouse.assetHeaders.contentEncoding}\` and \`Cache-Control: ${lighthouse.assetHeaders.cacheControl}\``,
    `  (asked with \`Accept-Encoding: gzip, deflate, br, zstd\`): the signed-in load transfers ${kib(maxScript)} of JavaScript (all requests,`,
    `  revalidations included) where the gzipped first load is ${kib(toHome.gzipBytes)}.`,
    '',
    '### What Lighthouse blames',
    '',
    ...blame,
    '### Lazily loaded chunks',
    '',
    'Not part of the shell; each is fetched when its route (or language) is first shown. "Added on top of the shell" includes',
    'the shared chunks only it pulls in.',
    '',
    ...lazy,
    '',
    `Shell CSS (not counted in the JavaScript budget): ${kib(bundle.shellCssGzipBytes)} gzipped.`,
    '',
    '### How measured',
    '',
    '- **First-load JavaScript** (`bench/web-bundle.ts`): follows the Vite manifest (`apps/web/dist/.vite/manifest.json`)',
    '  from the entry chunk through its static imports (what `index.html` loads and modulepreloads), then adds the lazy',
    '  chunks the login → home path loads: the English translations and the /home page (and the organization selector',
    '  for a user with several organizations). Each JavaScript file is gzipped with Node’s default level and counted once.',
    `  The script fails above ${maxKib} KiB.`,
    '- **Lighthouse** (`bench/web-lighthouse.ts`): one demo server; for each run a fresh Chromium started by Playwright with',
    '  a remote-debugging port, Lighthouse connected through its `port` option, HTTP cache emptied before the scored load.',
    '  The login page is scored on the authorization URL the portal redirects a signed-out visitor to (the identity',
    '  server answers it with a redirect to its login form). The home page is scored after signing in as',
    '  `admin@demo.local` through the real form in the same browser: Lighthouse opens `/#/home` in a new tab with the',
    '  session cookies (storage reset off). Desktop: Lighthouse’s desktop config; mobile: Lighthouse’s defaults. Throttling',
    '  is simulated (Lighthouse’s default method).',
    '- Every step is bounded (page waits, Lighthouse’s `maxWaitForLoad`, a per-run limit, a watchdog for the whole run).',
    '',
  ].join('\n');
}

const [bundleFile, lighthouseFile, resultsFile] = process.argv.slice(2);
if (!bundleFile || !lighthouseFile) {
  process.stderr.write('usage: node bench/support/web-report.ts BUNDLE.json LIGHTHOUSE.json [RESULTS.md]\n');
  process.exit(2);
}
writeSection(
  'web',
  renderWeb(
    JSON.parse(readFileSync(bundleFile, 'utf8')) as BundleResults,
    JSON.parse(readFileSync(lighthouseFile, 'utf8')) as LighthouseResults,
  ),
  resultsFile,
);
