export * from './dashboard.ts';
export * from './flow.ts';
export { DashboardDocumentV1, migrateV1 } from './legacy.ts';
export * from './read.ts';
