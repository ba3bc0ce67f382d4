import type { ServiceDefinition } from '../mount.ts';

export const triggerManagerService: ServiceDefinition = {
  name: 'triggermanager',
  title: 'Edgeport trigger manager',
  routes: async () => {},
};
