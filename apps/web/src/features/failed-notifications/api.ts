import type { NotificationsPaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, notificationsClient } from '../../shared/http/clients.ts';

const DELIVERIES = '/svc/notifications/api/v1/deliveries';
const RESEND = '/svc/notifications/api/v1/deliveries/{id}/resend';

export type DeliveryPage = OkBody<NotificationsPaths, typeof DELIVERIES, 'get'>;
export type Delivery = DeliveryPage['items'][number];
export type DeliveryStatus = Delivery['status'];

export const DELIVERIES_KEY = 'notification-deliveries';

/** One page of the organization's deliveries of a status, newest first (READ notifications). */
export function fetchDeliveries(
  token: string,
  organization: string,
  status: DeliveryStatus,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<DeliveryPage> {
  return answer(
    notificationsClient.GET(DELIVERIES, {
      params: { query: { organization, status, page, pageSize } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Queues a FAILED delivery again (UPDATE notifications): it answers PENDING, with its attempts starting over. */
export function resendDelivery(token: string, organization: string, id: string): Promise<Delivery> {
  return answer(
    notificationsClient.POST(RESEND, {
      params: { path: { id }, query: { organization } },
      headers: bearer(token),
    }),
  );
}
