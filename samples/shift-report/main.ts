import { type AppConnection, connect } from '@edgeport/bridge';
import { element, setState, showWho } from '../store-app-kit/page.ts';

/**
 * Shift report: a store app embedded by the portal through the bridge. The operator writes a report for a shift;
 * the last shift and notes are kept as the user's preferences through the host. It shows the operator and the
 * organization from the bridge context, lists the organization's devices through the portal's API with the token the
 * bridge gives (refreshed by its jwt change messages), and asks the portal to open its device management.
 */

const SHIFT_KEY = 'lastShift';
const NOTES_KEY = 'lastNotes';

type Device = { id: string; label: string; status: string };

let connection: AppConnection | undefined;

/** The organization's first devices, read from the portal's core API (this server) with the bridge's token. */
async function loadDevices() {
  const connected = connection;
  if (!connected) return;
  const { jwt, organizationId } = connected.context;
  setState('devices-state', 'Loading…', 'info');
  const list = element('devices');
  try {
    const response = await fetch(
      `/svc/core/api/v1/organizations/${encodeURIComponent(organizationId)}/devices?pageSize=20&sort=label`,
      { headers: { authorization: `Bearer ${jwt}` } },
    );
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      throw new Error(body.message ?? `HTTP ${response.status}`);
    }
    const page = (await response.json()) as { items: Device[]; total: number };
    list.replaceChildren(
      ...page.items.map((device) => {
        const item = document.createElement('li');
        item.textContent = `${device.label} (${device.status})`;
        return item;
      }),
    );
    setState(
      'devices-state',
      page.total === 0
        ? 'The organization has no devices yet.'
        : `${page.total} device${page.total === 1 ? '' : 's'}${page.total > page.items.length ? `, the first ${page.items.length} shown` : ''}.`,
      'info',
    );
  } catch (error) {
    list.replaceChildren();
    setState('devices-state', `The devices could not be read: ${(error as Error).message}`, 'error');
  }
}

async function loadLastReport(connected: AppConnection) {
  try {
    const [shift, notes] = await Promise.all([
      connected.getUserPreference(SHIFT_KEY),
      connected.getUserPreference(NOTES_KEY),
    ]);
    if (shift) element<HTMLSelectElement>('shift').value = shift;
    if (notes) element<HTMLTextAreaElement>('notes').value = notes;
    setState(
      'saved',
      shift ? `Your last report was for the ${shift} shift.` : 'No report saved yet.',
      'info',
    );
  } catch (error) {
    setState('saved', `The last report could not be read: ${(error as Error).message}`, 'error');
  }
}

async function saveReport(event: SubmitEvent) {
  event.preventDefault();
  const shift = element<HTMLSelectElement>('shift').value;
  const notes = element<HTMLTextAreaElement>('notes').value.trim();
  if (!notes) {
    setState('saved', 'Write some notes first.', 'error');
    return;
  }
  if (!connection) {
    setState('saved', 'Not connected to the portal.', 'error');
    return;
  }
  try {
    await connection.setUserPreference(SHIFT_KEY, shift);
    await connection.setUserPreference(NOTES_KEY, notes);
    setState('saved', `Report for the ${shift} shift saved at ${new Date().toLocaleTimeString()}.`, 'info');
  } catch (error) {
    setState('saved', `The report could not be saved: ${(error as Error).message}`, 'error');
  }
}

async function start() {
  element<HTMLFormElement>('report-form').addEventListener('submit', (event) => void saveReport(event));
  element('manage').addEventListener('click', () => connection?.navigate('device-manage'));
  element('refresh-devices').addEventListener('click', () => void loadDevices());
  try {
    const connected = await connect();
    connection = connected;
    setState('status', 'Connected to the portal.', 'connected');
    showWho(connected.context);
    connected.subscribe('user', () => showWho(connected.context));
    connected.subscribe('theme', () => showWho(connected.context));
    connected.subscribe('organizationResourceId', () => showWho(connected.context));
    connected.subscribe('organizationId', () => {
      showWho(connected.context);
      void loadDevices();
    });
    await Promise.all([loadLastReport(connected), loadDevices()]);
  } catch (error) {
    setState(
      'status',
      `Not connected: ${(error as Error).message}. Open this app from the portal's store.`,
      'error',
    );
    setState('devices-state', 'Not connected to the portal.', 'error');
  }
}

void start();
