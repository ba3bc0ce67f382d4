/** What identity.bench.ts measures, as written to its JSON file and rendered into RESULTS.md. */

export type Machine = {
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average just before the benchmark started its server. */
  loadAverage1m: number;
};

/**
 * CPU seconds spent during one phase: by the server process, by the benchmark process (the load generator) and by
 * everything else on the machine (other work competing for the same cores: a noise indicator).
 */
export type CpuSpent = { serverS: number; clientS: number; otherS: number };

export type HttpPhase = {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  durationS: number;
  /** Responses with the status the phase expects (200). */
  ok: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** `ok` per second of the phase. */
  perSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  cpu: CpuSpent;
};

export type RefreshPhase = HttpPhase & {
  /** Logins made beforehand to seed the chains (one per connection) and the spares. */
  chains: number;
  /** Spare refresh tokens taken because a chain broke (a non-200 consumed its token). */
  sparesUsed: number;
};

export type LoginPhase = {
  concurrency: number;
  durationS: number;
  ok: number;
  failures: number;
  firstFailure: string | undefined;
  perSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** HTTP requests per login: authorize, login page, credentials, resume, token exchange. */
  requestsPerLogin: number;
  cpu: CpuSpent;
};

export type MemoryPhase = {
  /** RSS after start, demo seed and 10 s idle. */
  idleRssMb: number;
  /** RSS right after the last load phase. */
  afterLoadRssMb: number;
  /** RSS after the load and another idle pause. */
  afterLoadIdleRssMb: number;
  idleSeconds: number;
  /** A second start on the same (now seeded) data directory: no initdb, no seed. */
  restartStartupMs: number;
  /** RSS of that restarted server after the same idle pause. */
  restartIdleRssMb: number;
};

export type IdentityResults = {
  date: string;
  machine: Machine;
  vcpus: number;
  startupMs: number;
  totalSeconds: number;
  /** Which database the server ran on. */
  database: string;
  memory: MemoryPhase;
  refresh: RefreshPhase;
  login: LoginPhase;
  svc: HttpPhase;
  healthz: HttpPhase;
};

/** Keycloak's published sizing: 120 refresh-token grants and 15 password logins per second per vCPU. */
export const KEYCLOAK_PER_VCPU = { refresh: 120, login: 15 } as const;

export const TARGETS = {
  refreshPerVcpu: 2 * KEYCLOAK_PER_VCPU.refresh,
  loginPerVcpu: 2 * KEYCLOAK_PER_VCPU.login,
  idleRssMb: 250,
} as const;
