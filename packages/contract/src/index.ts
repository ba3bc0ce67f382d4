export * as audit from './audit.ts';
export * as common from './common.ts';
export * as core from './core.ts';
export * as license from './license.ts';
export * as live from './live.ts';
export * as mappings from './mappings.ts';
export * as platform from './platform.ts';
export * as theme from './theme.ts';
