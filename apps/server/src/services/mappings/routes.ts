import type { ServiceDefinition } from '../mount.ts';

/** The mappings service: models (typed data paths with versions), presets binding device tags to them, device presets. */
export const mappingsService: ServiceDefinition = {
  name: 'mappings',
  title: 'Edgeport mappings service',
  routes: async (_app, _context) => {},
};
