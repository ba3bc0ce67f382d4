/** The TanStack Query key root of everything about gateways (lists, details, logs, connections). */
export const GATEWAYS_KEY = 'vpn-gateways';
