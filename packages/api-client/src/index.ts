import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths as CorePaths } from './generated/core.ts';

export type { CorePaths };

/** Typed client of the core service; paths carry the `/svc/core` base. */
export function createCoreClient(options: ClientOptions = {}) {
  return createClient<CorePaths>(options);
}
