import type { ServiceDefinition } from '../mount.ts';

export const alarmsService: ServiceDefinition = {
  name: 'alarms',
  title: 'Edgeport alarm service',
  routes: async () => {},
};
