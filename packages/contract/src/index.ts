export * as audit from './audit.ts';
export * as common from './common.ts';
export * as core from './core.ts';
export * as theme from './theme.ts';
