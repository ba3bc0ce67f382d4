import type { CorePaths, OkBody, PlatformPaths, TriggerManagerPaths } from '@edgeport/api-client';
import {
  answer,
  bearer,
  coreClient,
  platformClient,
  triggerManagerClient,
} from '../../shared/http/clients.ts';

const TRIGGERS = '/svc/triggermanager/api/v1/triggers';
const TRIGGER = '/svc/triggermanager/api/v1/triggers/{id}';
const RUN = '/svc/triggermanager/api/v1/triggers/{id}/run';
const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';
const PATHS = '/svc/platform/api/v1/organizations/{org}/data/paths';

export type TriggerList = OkBody<TriggerManagerPaths, typeof TRIGGERS, 'get'>;
export type Trigger = TriggerList['items'][number];
/** The body of POST /triggers. */
export type TriggerInput =
  TriggerManagerPaths[typeof TRIGGERS]['post']['requestBody']['content']['application/json'];
/** The body of PUT /triggers/{id}: any of the fields. */
export type TriggerPatch =
  TriggerManagerPaths[typeof TRIGGER]['put']['requestBody']['content']['application/json'];
export type DeviceOption = OkBody<CorePaths, typeof DEVICES, 'get'>['items'][number];
export type PathOption = OkBody<PlatformPaths, typeof PATHS, 'get'>['paths'][number];

export const TRIGGERS_KEY = 'triggers';

export function fetchTriggers(
  token: string,
  organization: string,
  signal?: AbortSignal,
): Promise<TriggerList> {
  return answer(
    triggerManagerClient.GET(TRIGGERS, {
      params: { query: { organization } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function createTrigger(token: string, organization: string, input: TriggerInput): Promise<Trigger> {
  return answer(
    triggerManagerClient.POST(TRIGGERS, {
      params: { query: { organization } },
      body: input,
      headers: bearer(token),
    }),
  );
}

export function updateTrigger(
  token: string,
  organization: string,
  id: string,
  patch: TriggerPatch,
): Promise<Trigger> {
  return answer(
    triggerManagerClient.PUT(TRIGGER, {
      params: { path: { id }, query: { organization } },
      body: patch,
      headers: bearer(token),
    }),
  );
}

export async function deleteTrigger(token: string, organization: string, id: string): Promise<void> {
  await answer(
    triggerManagerClient.DELETE(TRIGGER, {
      params: { path: { id }, query: { organization } },
      headers: bearer(token),
    }),
  );
}

/** Runs the trigger's action once now; the answer is the trigger with its run count, last run and last error. */
export function runTrigger(token: string, organization: string, id: string): Promise<Trigger> {
  return answer(
    triggerManagerClient.POST(RUN, {
      params: { path: { id }, query: { organization } },
      headers: bearer(token),
    }),
  );
}

/** The organization's first 1000 devices by label (READ devices), for the device pickers. */
export async function fetchDeviceOptions(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<DeviceOption[]> {
  const page = await answer(
    coreClient.GET(DEVICES, {
      params: { path: { org }, query: { page: 0, pageSize: 1000, sort: 'label', order: 'asc' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

/** The model paths the devices have that the caller may read (READ models and READ devices): path suggestions. */
export async function fetchPathOptions(
  token: string,
  org: string,
  deviceIds: string[],
  signal?: AbortSignal,
): Promise<PathOption[]> {
  if (deviceIds.length === 0) return [];
  const answerBody = await answer(
    platformClient.GET(PATHS, {
      params: { path: { org }, query: { deviceIds } },
      headers: bearer(token),
      signal,
    }),
  );
  return answerBody.paths;
}
