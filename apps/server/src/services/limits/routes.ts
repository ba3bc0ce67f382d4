import type { ServiceDefinition } from '../mount.ts';

export const limitsService: ServiceDefinition = {
  name: 'limits',
  title: 'Edgeport limits service',
  routes: async () => {},
};
