import type { ServiceDefinition } from '../../mount.ts';

/** The legacy remote-access login (spec 7): form login, keep-alive ping every 180 s, logout (being built). */
export const legacyVpnService: ServiceDefinition = {
  name: 'vpn',
  title: 'Edgeport remote-access legacy login',
  routes: async () => {},
};
