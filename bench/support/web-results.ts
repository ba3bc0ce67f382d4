/** The JSON written by bench/web-bundle.ts and bench/web-lighthouse.ts, read by bench/support/web-report.ts. */

export const WEB_TARGETS = {
  /** First-load JavaScript of the login -> home path, gzipped. */
  firstLoadKib: 300,
  /** Lighthouse performance score (0-100). */
  lighthouseScore: 95,
} as const;

export type PathSize = { name: string; files: number; rawBytes: number; gzipBytes: number };

export type ChunkSize = {
  /** The source the chunk was built from, e.g. `src/features/onboarding/RegisterPage.tsx`. */
  source: string;
  file: string;
  gzipBytes: number;
  /** What loading it adds on top of the shell (the chunk and the shared chunks only it pulls in). */
  addedGzipBytes: number;
  onHomePath: boolean;
};

export type BundleResults = {
  date: string;
  maxKib: number;
  /** Shell, login -> home, login -> selector -> home. */
  paths: PathSize[];
  lazy: ChunkSize[];
  shellCssGzipBytes: number;
  worstGzipBytes: number;
  met: boolean;
};

export type Finding = { id: string; title: string; score: number | null; displayValue?: string };

export type LighthouseRun = {
  /** `login` or `home`. */
  page: string;
  formFactor: 'desktop' | 'mobile';
  /** Path, query as `?…`, hash (the origin is the demo realm's). */
  requestedUrl: string;
  finalUrl: string;
  /** 0-100, or null when Lighthouse could not score the page. */
  score: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  speedIndexMs: number | null;
  /** Bytes of JavaScript as transferred (on this server: uncompressed). */
  scriptTransferBytes: number | null;
  scriptRequests: number | null;
  totalTransferBytes: number | null;
  /** Redirect hops before the final page (`redirects` audit) and the time Lighthouse attributes to them. */
  redirects: { hops: string[]; ms: number };
  /** Failing opportunities/insights/diagnostics of the performance category, worst first. */
  findings: Finding[];
  runtimeError?: string;
  warnings: string[];
  durationMs: number;
};

export type LighthouseResults = {
  date: string;
  lighthouseVersion: string;
  chromium: string;
  throttling: { desktop: string; mobile: string };
  /** Response headers of the entry script (asked with `Accept-Encoding: gzip, deflate, br, zstd`). */
  assetHeaders: { path: string; contentEncoding: string; cacheControl: string };
  machine: { nproc: number; cpuModel: string; loadAverage1m: number };
  runs: LighthouseRun[];
  totalSeconds: number;
};
