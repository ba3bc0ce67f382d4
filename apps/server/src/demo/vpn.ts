import type { Db } from '../db/index.ts';
import { seedGateway } from '../services/vpn/fixtures.ts';

export const DEMO_GATEWAY = 'Plant gateway';

/**
 * Remote access in the demo: one gateway at the plant (an ACTIVE VPN device licence, LAN 192.168.10.0/24) with an
 * HMI web page and a PLC speaking Modbus/TCP, an application profile and an application for each. `npm start` runs
 * its simulated plant and agent (`plant.ts`).
 */
export async function seedDemoGateway(db: Db, organizationId: string) {
  return seedGateway(db, organizationId, {
    name: DEMO_GATEWAY,
    description: 'Remote access to the packaging hall',
    lanNetwork: '192.168.10.0/24',
    latitude: 51.4425,
    longitude: 5.4732,
    profile: { name: 'Plant operators', otpRequired: false },
    endpoints: [
      { name: 'HMI', address: '192.168.10.20', protocol: 'HTTP', port: 80, description: 'Operator panel' },
      { name: 'PLC', address: '192.168.10.30', protocol: 'TCP', port: 502, description: 'Line controller' },
    ],
    actions: [
      { name: 'HMI web page', protocol: 'HTTP', port: 80, path: '/', clientOs: [] },
      { name: 'Modbus TCP', protocol: 'TCP', port: 502, clientOs: ['Win', 'Lin', 'Mac'] },
    ],
  });
}
