/** Realistic-looking values for a simulated machine: slow waves with noise, counters, on/off states, messages. */
export type TagKind = 'number' | 'integer' | 'boolean' | 'string';
export type TagSpec = { tag: string; kind: TagKind; base?: number; amplitude?: number; periodS?: number };

export type Signal = (t: number) => number | boolean | string;

const STATUS_MESSAGES = ['running', 'running', 'running', 'idle', 'cleaning', 'changeover'];

/** A deterministic-per-device phase so devices of one preset do not move in lockstep. */
function phaseOf(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return ((hash >>> 0) % 1000) / 1000;
}

export function signalFor(spec: TagSpec, seed: string): Signal {
  const phase = phaseOf(`${seed}:${spec.tag}`) * 2 * Math.PI;
  const base = spec.base ?? 50;
  const amplitude = spec.amplitude ?? base * 0.2;
  const period = (spec.periodS ?? 120) * 1000;
  const wave = (t: number) => base + amplitude * Math.sin((2 * Math.PI * t) / period + phase);
  switch (spec.kind) {
    case 'number':
      return (t) => Math.round((wave(t) + (Math.random() - 0.5) * amplitude * 0.1) * 100) / 100;
    case 'integer':
      return (t) => Math.round(wave(t));
    case 'boolean':
      return (t) => Math.sin((2 * Math.PI * t) / period + phase) > -0.8;
    case 'string':
      return (t) => STATUS_MESSAGES[Math.floor(t / period + phase) % STATUS_MESSAGES.length] ?? 'running';
  }
}
