import { answer, quickCoreClient } from '../shared/http/clients.ts';
import { hasStatus } from '../shared/http/errors.ts';

/** The realm the server keeps for a host name; undefined when the host names none (404). */
export async function lookupLoginInfo(
  hostname: string,
): Promise<{ realm: string; displayName: string } | undefined> {
  try {
    return await answer(
      quickCoreClient.GET('/svc/core/api/v1/organizations/loginInfo', { params: { query: { hostname } } }),
    );
  } catch (error) {
    if (hasStatus(error, 404)) return undefined;
    throw error;
  }
}
