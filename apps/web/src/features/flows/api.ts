import { emptyDocument } from '@edgeport/dashboard-schema';
import { createOne, type Dashboard } from '../dashboards/api.ts';
import { fetchUsers, type UserPage } from '../iam-users/api.ts';

export type OrganizationUser = UserPage['items'][number];

export function createFlow(token: string, name: string): Promise<Dashboard> {
  return createOne(token, 'flows', { name, document: emptyDocument('flow') });
}

/** The organization's members the share dialog offers (core users list, first 1000 by e-mail). */
export async function fetchOrganizationUsers(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<OrganizationUser[]> {
  const page = await fetchUsers(token, org, { page: 0, pageSize: 1000, sort: 'email', order: 'asc' }, signal);
  return page.items;
}
