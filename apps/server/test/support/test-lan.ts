import { execFile } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A plant LAN address for remote-access tests on one machine: 10.213.0.1 on the loopback interface (added once, as
 * root). Loopback itself is a forbidden endpoint range, so machines of a test "plant" listen here instead.
 */
export const TEST_LAN = { address: '10.213.0.1', lanNetwork: '10.213.0.0/24' } as const;

function present(): boolean {
  return Object.values(networkInterfaces()).some((entries) =>
    entries?.some((entry) => entry.address === TEST_LAN.address),
  );
}

export async function ensureTestLan(): Promise<typeof TEST_LAN> {
  if (present()) return TEST_LAN;
  try {
    await run('ip', ['addr', 'add', `${TEST_LAN.address}/32`, 'dev', 'lo']);
  } catch (error) {
    // Another test file may have added it meanwhile.
    if (!present())
      throw new Error(`cannot add the test LAN address (run as root with iproute2): ${String(error)}`);
  }
  return TEST_LAN;
}
