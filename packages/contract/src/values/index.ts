/**
 * The contract's plain values (lists, limits, patterns) without its schemas, for the web app: a schema module pulls in
 * TypeBox, and through the package's index every other module, which put about 45 KiB gzipped into the portal's first
 * load for one list of severities. The schema modules re-export these, so the server names them as before.
 */
export * as alarms from './alarms.ts';
export * as dashboards from './dashboards.ts';
export * as license from './license.ts';
export * as licenseProducts from './license-products.ts';
export * as vpn from './vpn.ts';
