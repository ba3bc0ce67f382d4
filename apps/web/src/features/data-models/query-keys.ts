/** The TanStack Query key roots of models and presets (each followed by the organization id). */
export const MODELS_KEY = 'data-models';
export const PRESETS_KEY = 'data-presets';
