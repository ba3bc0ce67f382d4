import type { NotificationsPaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, notificationsClient } from '../../shared/http/clients.ts';

const SETTINGS = '/svc/notifications/api/v1/settings';

export type Settings = OkBody<NotificationsPaths, typeof SETTINGS, 'get'>;
/** The body of PUT /settings: the fields to change. */
export type SettingsUpdate =
  NotificationsPaths[typeof SETTINGS]['put']['requestBody']['content']['application/json'];

export const SETTINGS_KEY = 'notification-settings';

export function fetchSettings(token: string, organization: string, signal?: AbortSignal): Promise<Settings> {
  return answer(
    notificationsClient.GET(SETTINGS, {
      params: { query: { organization } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function updateSettings(
  token: string,
  organization: string,
  update: SettingsUpdate,
): Promise<Settings> {
  return answer(
    notificationsClient.PUT(SETTINGS, {
      params: { query: { organization } },
      body: update,
      headers: bearer(token),
    }),
  );
}
