/** Operating systems of applications (spec 3). */
export const CLIENT_OS = ['Win', 'Lin', 'Mac', 'Android', 'iOS'] as const;
/** Operating systems named in remote-access calls (spec 3), or empty. */
export const REMOTE_CLIENT_OS = ['Linux', 'Mac', 'Win', ''] as const;
export const ENDPOINT_PROTOCOLS = ['HTTP', 'HTTPS', 'TCP'] as const;
/** Spec 9: gateway logs default limit; application preferences page size; legacy keep-alive period. */
export const GATEWAY_LOG_LIMIT = 1000;
export const APPLICATION_PREFERENCES_PAGE_SIZE = 200;
export const LEGACY_KEEP_ALIVE_MS = 180_000;
/** The query parameter of a browser-access address that carries its one-time ticket. */
export const REMOTE_TICKET_PARAMETER = 'edgeport_ticket';
