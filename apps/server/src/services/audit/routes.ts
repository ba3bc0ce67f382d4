import type { ServiceDefinition } from '../mount.ts';

/** The audit service: the organization's log of every change (the /log screen). */
export const auditService: ServiceDefinition = {
  name: 'audit',
  title: 'Edgeport audit service',
  routes: async () => {},
};
