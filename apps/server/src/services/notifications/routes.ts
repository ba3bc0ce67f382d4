import type { ServiceDefinition } from '../mount.ts';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  title: 'Edgeport notification service',
  routes: async () => {},
};
