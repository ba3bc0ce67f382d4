import { type AppConnection, connect } from '@edgeport/bridge';
import { element, setState, showWho } from '../store-app-kit/page.ts';
import { costCents, formatCents, formatKwh, parseKwh, parseTariff } from './cost.ts';

/**
 * Energy cost: a store app embedded by the portal through the bridge. It shows the user and the organization from the
 * bridge context, keeps the tariff (integer cents per kWh) as a user preference through the host, computes the cost of
 * a consumption exactly in integer cents, and asks the portal to open its data explorer.
 */

const TARIFF_KEY = 'tariffCentsPerKwh';

let connection: AppConnection | undefined;
let tariff: bigint | undefined;

function compute() {
  const output = element('cost');
  const text = element<HTMLInputElement>('kwh').value;
  if (!text.trim()) {
    output.textContent = '–';
    return;
  }
  const wattHours = parseKwh(text);
  if (wattHours === undefined) {
    output.textContent = 'Enter kWh as a number with at most three decimals (for example 12.5).';
    output.dataset.state = 'error';
    return;
  }
  if (tariff === undefined) {
    output.textContent = 'Save a tariff first.';
    output.dataset.state = 'error';
    return;
  }
  const cents = costCents(wattHours, tariff);
  output.dataset.state = 'info';
  output.dataset.cents = cents.toString();
  output.textContent = `${formatCents(cents)} (${cents} cents for ${formatKwh(wattHours)} kWh at ${tariff} cents/kWh)`;
}

async function loadTariff(connected: AppConnection) {
  try {
    const stored = await connected.getUserPreference(TARIFF_KEY);
    const parsed = stored === null ? undefined : parseTariff(stored);
    if (parsed !== undefined) {
      tariff = parsed;
      element<HTMLInputElement>('tariff').value = parsed.toString();
      setState('tariff-result', `Your saved tariff: ${parsed} cents per kWh.`, 'info');
    } else setState('tariff-result', 'No tariff saved yet.', 'info');
  } catch (error) {
    setState('tariff-result', `The tariff could not be read: ${(error as Error).message}`, 'error');
  }
}

async function saveTariff(event: SubmitEvent) {
  event.preventDefault();
  const parsed = parseTariff(element<HTMLInputElement>('tariff').value);
  if (parsed === undefined) {
    setState('tariff-result', 'The tariff must be a whole number of cents per kWh.', 'error');
    return;
  }
  if (!connection) {
    setState('tariff-result', 'Not connected to the portal.', 'error');
    return;
  }
  try {
    await connection.setUserPreference(TARIFF_KEY, parsed.toString());
    tariff = parsed;
    setState('tariff-result', `Saved: ${parsed} cents per kWh.`, 'info');
    compute();
  } catch (error) {
    setState('tariff-result', `The tariff could not be saved: ${(error as Error).message}`, 'error');
  }
}

async function start() {
  element<HTMLFormElement>('tariff-form').addEventListener('submit', (event) => void saveTariff(event));
  element<HTMLFormElement>('cost-form').addEventListener('submit', (event) => {
    event.preventDefault();
    compute();
  });
  element('explore').addEventListener('click', () => connection?.navigate('data-explore'));
  try {
    const connected = await connect();
    connection = connected;
    setState('status', 'Connected to the portal.', 'connected');
    showWho(connected.context);
    connected.subscribe('user', () => showWho(connected.context));
    connected.subscribe('organizationId', () => showWho(connected.context));
    connected.subscribe('organizationResourceId', () => showWho(connected.context));
    connected.subscribe('theme', () => showWho(connected.context));
    await loadTariff(connected);
  } catch (error) {
    setState(
      'status',
      `Not connected: ${(error as Error).message}. Open this app from the portal's store.`,
      'error',
    );
  }
}

void start();
