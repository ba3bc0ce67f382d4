import type { Db } from '../db/index.ts';
import { seedGateway } from '../services/vpn/fixtures.ts';

/**
 * Remote access in the demo: one gateway at the plant (an ACTIVE VPN device licence, LAN 192.168.10.0/24) with an
 * HMI web page and a PLC speaking Modbus/TCP, an application profile and an application for each. No agent runs:
 * the gateway stays offline until someone starts one with its edge configuration file.
 */
export async function seedDemoGateway(db: Db, organizationId: string) {
  return seedGateway(db, organizationId, {
    name: 'Plant gateway',
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
