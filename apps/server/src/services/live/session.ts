import { live } from '@edgeport/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { Compile } from 'typebox/compile';
import type { Db } from '../../db/index.ts';
import { devices } from '../../db/schema.ts';
import { type Principal, principalOfCredential } from '../../http/principal.ts';
import type { TokenVerifier } from '../../identity/verify.ts';
import type { AlarmChange, StatusEvent, ValuesEvent } from '../../ingest/events.ts';
import type { Ingest } from '../../ingest/index.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { type DataAccess, dataAccessOf } from '../core/roles/data-access.ts';
import type { LiveHub, LiveListener } from './hub.ts';

const checkers = {
  auth: Compile(live.LiveAuth),
  subscribe: Compile(live.LiveSubscription),
  unsubscribe: Compile(live.LiveSubscription),
};

/** The message if it is valid, else the first problem (checked against the schema its `type` names). */
function parseClientMessage(raw: string): live.LiveClientMessage | string {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return 'messages must be JSON';
  }
  const type = (message as { type?: unknown } | null)?.type;
  if (type !== 'auth' && type !== 'subscribe' && type !== 'unsubscribe') {
    return "type must be 'auth', 'subscribe' or 'unsubscribe'";
  }
  const checker = checkers[type];
  if (checker.Check(message)) return message as live.LiveClientMessage;
  const [first] = checker.Errors(message);
  return `${first?.instancePath || 'message'} ${first?.message ?? 'is not valid'}`;
}

/** A slow browser gets no more live values once this much is waiting to be sent (it catches up with newer ones). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export type LiveSocket = {
  send(data: string): void;
  close(code: number, reason: string): void;
  readonly bufferedAmount: number;
};

type Authorized = { principal: Principal; organizationId: string; access: DataAccess; expiresAt: number };

/**
 * One browser's live feed: it authenticates with its permission token, subscribes to devices of that organization
 * (READ devices), and receives their stored values (only the model paths its data roles may read) and status.
 */
export class LiveSession {
  private authorized: Authorized | undefined;
  private readonly subscribed = new Set<string>();
  private expiry: NodeJS.Timeout | undefined;
  private readonly socket: LiveSocket;
  private readonly ingest: Ingest;
  private readonly hub: LiveHub;
  private readonly db: Db;
  private readonly verifyToken: TokenVerifier;
  private readonly host: string | undefined;

  constructor(
    socket: LiveSocket,
    deps: { ingest: Ingest; hub: LiveHub; db: Db; verifyToken: TokenVerifier; host?: string },
  ) {
    this.socket = socket;
    this.hub = deps.hub;
    this.ingest = deps.ingest;
    this.db = deps.db;
    this.verifyToken = deps.verifyToken;
    this.host = deps.host;
  }

  async receive(raw: string): Promise<void> {
    const message = parseClientMessage(raw);
    if (typeof message === 'string') return this.send({ type: 'error', message });
    if (message.type === 'auth') return this.authenticate(message.token, message.organization);
    if (!this.authorized) return this.socket.close(live.LIVE_CLOSE_UNAUTHORIZED, 'authenticate first');
    if (message.type === 'unsubscribe') {
      for (const id of message.deviceIds) this.stopWatching(id);
      return;
    }
    await this.subscribe(message.deviceIds, this.authorized.organizationId);
  }

  close(): void {
    clearTimeout(this.expiry);
    for (const id of [...this.subscribed]) this.stopWatching(id);
    if (this.authorized) this.hub.unwatchAlarms(this.authorized.organizationId, this.onAlarm);
  }

  private async authenticate(token: string, organization: string): Promise<void> {
    try {
      const principal = await principalOfCredential(token, this.host, this.verifyToken, this.db);
      const org = await authorizeInOrganization(this.db, principal, organization, 'READ', 'devices');
      if (this.authorized && this.authorized.organizationId !== org.id) {
        for (const id of [...this.subscribed]) this.stopWatching(id);
        this.hub.unwatchAlarms(this.authorized.organizationId, this.onAlarm);
      }
      const exp =
        typeof principal.token.exp === 'number' ? principal.token.exp * 1000 : Number.POSITIVE_INFINITY;
      this.authorized = {
        principal,
        organizationId: org.id,
        access: await dataAccessOf(this.db, principal.userId, org.id),
        expiresAt: exp,
      };
      this.closeAtExpiry(exp);
      this.hub.watchAlarms(org.id, this.onAlarm);
      this.send({ type: 'ready', organizationId: org.id });
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      this.socket.close(
        status === 401 ? live.LIVE_CLOSE_UNAUTHORIZED : live.LIVE_CLOSE_FORBIDDEN,
        error instanceof Error ? error.message.slice(0, 120) : 'not allowed',
      );
    }
  }

  private closeAtExpiry(expiresAt: number): void {
    clearTimeout(this.expiry);
    if (!Number.isFinite(expiresAt)) return;
    this.expiry = setTimeout(
      () => this.socket.close(live.LIVE_CLOSE_UNAUTHORIZED, 'token expired'),
      Math.max(0, expiresAt - Date.now()),
    );
    this.expiry.unref();
  }

  private async subscribe(deviceIds: string[], organizationId: string): Promise<void> {
    const found = await this.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.organizationId, organizationId), inArray(devices.id, deviceIds)));
    const known = new Set(found.map((row) => row.id));
    const unknown = deviceIds.filter((id) => !known.has(id));
    for (const id of known) {
      this.subscribed.add(id);
      this.hub.watch(id, this.listener);
    }
    if (unknown.length > 0) this.send({ type: 'error', message: 'devices not found', deviceIds: unknown });
    // Start each subscribed device with what is known now, so a screen never waits for the next value.
    for (const id of known) {
      const latest = await this.ingest.latestValues(id);
      const readable = latest.filter((entry) => this.authorized?.access.canRead(entry.path));
      if (readable.length === 0) continue;
      this.send({
        type: 'values',
        deviceId: id,
        ts: Math.max(...readable.map((entry) => entry.ts)),
        values: Object.fromEntries(readable.map((entry) => [entry.path, entry.value])),
      });
    }
  }

  private stopWatching(deviceId: string): void {
    this.subscribed.delete(deviceId);
    this.hub.unwatch(deviceId, this.listener);
  }

  private readonly listener: LiveListener = {
    values: (event) => this.onValues(event),
    status: (event) => this.onStatus(event),
  };

  private readonly onValues = (event: ValuesEvent): void => {
    const authorized = this.authorized;
    // The hub calls only for watched devices; a device moved to another organization since is not shown.
    if (!authorized || event.organizationId !== authorized.organizationId) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    const values = authorized.access.restricted
      ? Object.fromEntries(Object.entries(event.values).filter(([path]) => authorized.access.canRead(path)))
      : event.values;
    if (Object.keys(values).length === 0) return;
    this.send({ type: 'values', deviceId: event.deviceId, ts: event.ts, values });
  };

  private readonly onStatus = (event: StatusEvent): void => {
    if (event.organizationId !== this.authorized?.organizationId) return;
    this.send({ type: 'status', deviceId: event.deviceId, status: event.status, at: event.at });
  };

  /** Every alarm change of the organization, except alarms on model paths the session's data roles may not read. */
  private readonly onAlarm = (change: AlarmChange): void => {
    const authorized = this.authorized;
    if (!authorized || change.organizationId !== authorized.organizationId) return;
    const path = change.alarm.path;
    if (path !== null && !authorized.access.canRead(path)) return;
    this.send({ type: 'alarm', event: change.event, alarm: change.alarm });
  };

  private send(message: live.LiveServerMessage): void {
    this.socket.send(JSON.stringify(message));
  }
}
