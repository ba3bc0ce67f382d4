import {
  type DashboardDocument,
  type FlowEntry,
  type FlowIcon,
  readDocument,
  type Widget,
} from '@edgeport/dashboard-schema';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { type DashboardKind, dashboardShares, memberships, users } from '../db/schema.ts';
import { findDashboardByName, insertDashboard } from '../services/dashboard/dashboards/store.ts';
import { DEMO_REALM } from './seed.ts';

export const DEMO_DASHBOARD = 'Line overview';
export const DEMO_COMPARISON = 'Line comparison';
export const DEMO_FLOW = 'Plant';
const DEMO_OWNER = 'admin@demo.local';
/** The demo's operator views the dashboards and the flow: shared with them read-only. */
const DEMO_READER = 'operator@demo.local';

/** The demo's slots and devices: `lines` are the packaging lines' device ids, in the order of the demo devices. */
export type DemoDashboardInput = { organizationId: string; modelId: string; lines: readonly string[] };

const text = (
  id: string,
  layout: Widget['layout'],
  value: string,
  size: 'sm' | 'md' | 'lg' | 'xl',
): Widget => ({
  id,
  type: 'text',
  layout,
  options: { text: value, size },
});

/**
 * "Line overview": one packaging line (slot `line`, default the first line). Page 1 shows its current values, gauges,
 * the speed set-point and a button to page 2; page 2 its trends and alarms, and a button back.
 */
export function lineOverview(modelId: string, defaultDeviceId: string | undefined): DashboardDocument {
  const at = (path: string) => ({ slot: 'line', path });
  return {
    schemaVersion: 2,
    rootPageId: 'overview',
    slots: [{ name: 'line', label: 'Packaging line', modelId, ...(defaultDeviceId && { defaultDeviceId }) }],
    variables: [],
    pages: [
      {
        id: 'overview',
        title: 'Overview',
        widgets: [
          text('title', { x: 0, y: 0, w: 24, h: 2 }, 'Packaging line — live values', 'lg'),
          {
            id: 'speed',
            type: 'value',
            title: 'Line speed',
            layout: { x: 0, y: 2, w: 6, h: 4 },
            binding: at('/line/speed'),
            options: { unit: 'pcs/min', decimals: 0 },
          },
          {
            id: 'count',
            type: 'value',
            title: 'Packs this shift',
            layout: { x: 6, y: 2, w: 6, h: 4 },
            binding: at('/line/count'),
            options: { unit: 'pcs', decimals: 0 },
          },
          {
            id: 'running',
            type: 'value',
            title: 'Running',
            layout: { x: 12, y: 2, w: 6, h: 4 },
            binding: at('/line/running'),
            options: {},
          },
          {
            id: 'status',
            type: 'value',
            title: 'PLC message',
            layout: { x: 18, y: 2, w: 6, h: 4 },
            binding: at('/status/message'),
            options: {},
          },
          {
            id: 'motor-temperature',
            type: 'gauge',
            title: 'Motor temperature',
            layout: { x: 0, y: 6, w: 8, h: 8 },
            binding: at('/motor/temperature'),
            options: { min: 0, max: 120, unit: '°C', decimals: 1 },
          },
          {
            id: 'tank-level',
            type: 'gauge',
            title: 'Glue tank',
            layout: { x: 8, y: 6, w: 8, h: 8 },
            binding: at('/tank/level'),
            options: { min: 0, max: 100, unit: '%', decimals: 0 },
          },
          {
            id: 'speed-setpoint',
            type: 'setpoint',
            title: 'Target speed',
            layout: { x: 16, y: 6, w: 8, h: 4 },
            binding: at('/setpoints/speed'),
            options: { min: 0, max: 200, step: 5, unit: 'pcs/min' },
          },
          {
            id: 'to-trends',
            type: 'button',
            layout: { x: 16, y: 10, w: 8, h: 4 },
            action: { kind: 'navigate', pageId: 'trends' },
            options: { label: 'Trends and alarms' },
          },
        ],
      },
      {
        id: 'trends',
        title: 'Trends and alarms',
        widgets: [
          {
            id: 'speed-trend',
            type: 'lineChart',
            title: 'Speed and target (10 min)',
            layout: { x: 0, y: 0, w: 16, h: 10 },
            bindings: [at('/line/speed'), at('/setpoints/speed')],
            options: { windowSeconds: 600 },
          },
          {
            id: 'motor-trend',
            type: 'lineChart',
            title: 'Motor temperature and current (10 min)',
            layout: { x: 0, y: 10, w: 16, h: 10 },
            bindings: [at('/motor/temperature'), at('/motor/current')],
            options: { windowSeconds: 600 },
          },
          {
            id: 'alarms',
            type: 'alarmList',
            title: 'Alarms of this line',
            layout: { x: 16, y: 0, w: 8, h: 17 },
            options: { slot: 'line', limit: 20 },
          },
          {
            id: 'to-overview',
            type: 'button',
            layout: { x: 16, y: 17, w: 8, h: 3 },
            action: { kind: 'navigate', pageId: 'overview' },
            options: { label: 'Back to the overview' },
          },
        ],
      },
    ],
  };
}

/** "Line comparison": two lines side by side (slots `a` and `b`), their speeds in one chart. */
export function lineComparison(
  modelId: string,
  a: string | undefined,
  b: string | undefined,
): DashboardDocument {
  const column = (slot: 'a' | 'b', x: number): Widget[] => [
    {
      id: `${slot}-speed`,
      type: 'value',
      title: `Line ${slot.toUpperCase()} speed`,
      layout: { x, y: 2, w: 6, h: 4 },
      binding: { slot, path: '/line/speed' },
      options: { unit: 'pcs/min', decimals: 0 },
    },
    {
      id: `${slot}-temperature`,
      type: 'gauge',
      title: `Line ${slot.toUpperCase()} motor`,
      layout: { x: x + 6, y: 2, w: 6, h: 6 },
      binding: { slot, path: '/motor/temperature' },
      options: { min: 0, max: 120, unit: '°C', decimals: 1 },
    },
  ];
  return {
    schemaVersion: 2,
    rootPageId: 'compare',
    slots: [
      { name: 'a', label: 'Line A', modelId, ...(a && { defaultDeviceId: a }) },
      { name: 'b', label: 'Line B', modelId, ...(b && { defaultDeviceId: b }) },
    ],
    variables: [],
    pages: [
      {
        id: 'compare',
        title: 'Comparison',
        widgets: [
          text('title', { x: 0, y: 0, w: 24, h: 2 }, 'Two packaging lines side by side', 'lg'),
          ...column('a', 0),
          ...column('b', 12),
          {
            id: 'speeds',
            type: 'lineChart',
            title: 'Speeds (10 min)',
            layout: { x: 0, y: 8, w: 24, h: 10 },
            bindings: [
              { slot: 'a', path: '/line/speed' },
              { slot: 'b', path: '/line/speed' },
            ],
            options: { windowSeconds: 600 },
          },
        ],
      },
    ],
  };
}

/** A flow entry as written (the schema's static type of `icon` is `never`; readDocument checks the names). */
type Entry = Omit<FlowEntry, 'icon'> & { icon: FlowIcon };
/** The flow document as written here; `readDocument('flow', …)` checks it before it is stored. */
export type DemoFlowDocument = { schemaVersion: 1; entries: Entry[] };

/** "Plant": the overview, then one card per packaging line under it, and the comparison. */
export function plantFlow(
  overviewId: string,
  comparisonId: string,
  lines: readonly string[],
): DemoFlowDocument {
  const colors = ['#0b7285', '#2b8a3e', '#e67700'];
  const entries: Entry[] = [
    {
      id: 'lines',
      alias: 'Packaging lines',
      icon: 'factory',
      color: '#1c7ed6',
      target: { kind: 'dashboard', dashboardId: overviewId },
      position: { x: 0, y: 0 },
    },
    ...lines.slice(0, 3).map(
      (deviceId, index): Entry => ({
        id: `line-${index + 1}`,
        parentId: 'lines',
        alias: `Packaging line ${index + 1}`,
        icon: 'gauge',
        color: colors[index] ?? '#0b7285',
        target: { kind: 'dashboard', dashboardId: overviewId, slots: { line: deviceId } },
        position: { x: index * 220, y: 160 },
      }),
    ),
    {
      id: 'compare',
      alias: 'Compare lines',
      icon: 'chart',
      color: '#7048e8',
      target: { kind: 'dashboard', dashboardId: comparisonId },
      position: { x: 440, y: 0 },
    },
  ];
  return { schemaVersion: 1, entries };
}

async function demoOwner(db: Db, organizationId: string): Promise<string | null> {
  return demoUser(db, organizationId, DEMO_OWNER);
}

async function demoUser(db: Db, organizationId: string, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(
      and(
        eq(users.realm, DEMO_REALM),
        eq(users.email, email),
        eq(memberships.organizationId, organizationId),
      ),
    );
  return row?.id ?? null;
}

async function ensure(
  db: Db,
  organizationId: string,
  ownerId: string | null,
  kind: DashboardKind,
  name: string,
  description: string,
  document: DashboardDocument | DemoFlowDocument,
): Promise<string> {
  const existing = await findDashboardByName(db, organizationId, kind, name);
  if (existing) return existing.id;
  const read = readDocument(kind, document, name);
  if (!read.ok) throw new Error(`demo ${kind} '${name}' is not valid: ${read.errors.join('; ')}`);
  const row = await insertDashboard(db, {
    organizationId,
    kind,
    name,
    description,
    ownerId,
    document: read.document as unknown as Record<string, unknown>,
  });
  return row.id;
}

/**
 * The demo's dashboards (idempotent: ones of the same names are kept): "Line overview" and "Line comparison" bound
 * to the packaging-line model, and the flow "Plant" leading to them, owned by the demo administrator and shared
 * read-only with the demo operator.
 */
export async function seedDemoDashboards(
  db: Db,
  { organizationId, modelId, lines }: DemoDashboardInput,
): Promise<{ overview: string; comparison: string; flow: string }> {
  const ownerId = await demoOwner(db, organizationId);
  const overview = await ensure(
    db,
    organizationId,
    ownerId,
    'dashboard',
    DEMO_DASHBOARD,
    'One packaging line: live values, gauges, the speed set-point, trends and alarms',
    lineOverview(modelId, lines[0]),
  );
  const comparison = await ensure(
    db,
    organizationId,
    ownerId,
    'dashboard',
    DEMO_COMPARISON,
    'Two packaging lines side by side',
    lineComparison(modelId, lines[0], lines[1]),
  );
  const flow = await ensure(
    db,
    organizationId,
    ownerId,
    'flow',
    DEMO_FLOW,
    'The plant: every packaging line and their comparison',
    plantFlow(overview, comparison, lines),
  );
  const readerId = await demoUser(db, organizationId, DEMO_READER);
  if (readerId) {
    await db
      .insert(dashboardShares)
      .values(
        [overview, comparison, flow].map((dashboardId) => ({
          dashboardId,
          userId: readerId,
          level: 'r' as const,
        })),
      )
      .onConflictDoNothing();
  }
  return { overview, comparison, flow };
}
