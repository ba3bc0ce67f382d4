import type { FastifyBaseLogger } from 'fastify';
import { everyPeriodOnce } from '../cluster/periodic.ts';
import type { Db } from '../db/index.ts';
import {
  type DeviceAccess,
  deviceAccessStates,
  onDeviceAccessChanged,
  secretRestorer,
} from '../services/license/device-credentials.ts';
import type { Acl, DynsecAnswer, DynsecApi, DynsecClient, DynsecCommand } from './dynsec.ts';
import { dataTopic, setpointTopic, statusTopic, TOPIC_ROOT } from './topics.ts';

/** The broker-side names of what Edgeport manages: nothing else on the broker is touched. */
export const DEVICE_TEXTNAME = 'edgeport device';
const DEVICE_ROLE_PREFIX = 'edgeport-device-';
export const SERVER_ROLE = 'edgeport-server';
/** Where instances relay live events to each other (see live-relay.ts); device clients can neither read nor write it. */
export const INTERNAL_TOPIC_ROOT = 'edgeport/internal';
export const SHARE_GROUP = 'edgeport';
/** A full comparison of the broker with the database this often, for anything an announcement missed. */
const RESYNC_EVERY_MS = 5 * 60_000;
/** Answers that mean the broker is already as wanted. */
const ALREADY_SO = new Set(['Role already exists', 'Client not found', 'Role not found']);

const roleOf = (deviceId: string) => `${DEVICE_ROLE_PREFIX}${deviceId}`;
/** Tells which secret the broker was given without saying anything about it (a prefix of its SHA-256). */
const fingerprintOf = (access: DeviceAccess) => `secret ${access.secretHash.slice(0, 16)}`;

/** What the server's own user may do beyond the plugin's admin role: consume device data, send set-points, relay. */
const SERVER_ACLS: Acl[] = [
  { acltype: 'subscribePattern', topic: `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/data`, allow: true },
  { acltype: 'subscribePattern', topic: `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/status`, allow: true },
  { acltype: 'subscribePattern', topic: `${INTERNAL_TOPIC_ROOT}/#`, allow: true },
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/+/setpoints`, allow: true },
  { acltype: 'publishClientSend', topic: `${INTERNAL_TOPIC_ROOT}/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${INTERNAL_TOPIC_ROOT}/#`, allow: true },
];

/** A device may publish its data and status and subscribe to its set-points: nothing else (the broker denies the rest). */
function deviceAcls(deviceId: string): Acl[] {
  return [
    { acltype: 'publishClientSend', topic: dataTopic(deviceId), allow: true },
    { acltype: 'publishClientSend', topic: statusTopic(deviceId), allow: true },
    { acltype: 'subscribeLiteral', topic: setpointTopic(deviceId), allow: true },
    { acltype: 'publishClientReceive', topic: setpointTopic(deviceId), allow: true },
  ];
}

/** The commands that make the broker's client of the device what the database says, or undefined: cannot be done. */
function commandsFor(
  access: DeviceAccess,
  current: DynsecClient | undefined,
  secret: () => string | undefined,
): DynsecCommand[] | undefined {
  const username = access.deviceId;
  const rolename = roleOf(username);
  const enabled: DynsecCommand = access.ended
    ? { command: 'disableClient', username }
    : { command: 'enableClient', username };
  if (!current) {
    const password = secret();
    if (!password) return undefined;
    const client: DynsecCommand = {
      command: 'createClient',
      username,
      password,
      clientid: username,
      textname: DEVICE_TEXTNAME,
      textdescription: fingerprintOf(access),
      roles: [{ rolename }],
    };
    return [
      { command: 'createRole', rolename, acls: deviceAcls(username) },
      client,
      ...(access.ended ? [enabled] : []),
    ];
  }
  const commands: DynsecCommand[] = [];
  if (current.textdescription !== fingerprintOf(access) || current.clientid !== username) {
    const password = secret();
    // The broker still has a replaced secret it cannot be given the new one of: that old secret must not work.
    if (!password) return [{ command: 'disableClient', username }];
    commands.push({
      command: 'modifyClient',
      username,
      password,
      clientid: username,
      textdescription: fingerprintOf(access),
    });
  }
  if (!current.roles.some((role) => role.rolename === rolename))
    commands.push(
      { command: 'createRole', rolename, acls: deviceAcls(username) },
      { command: 'addClientRole', username, rolename },
    );
  if ((current.disabled ?? false) !== access.ended) commands.push(enabled);
  return commands;
}

const removal = (deviceId: string): DynsecCommand[] => [
  { command: 'deleteClient', username: deviceId },
  { command: 'deleteRole', rolename: roleOf(deviceId) },
];

/**
 * Keeps each device's client and topic rights on an external Mosquitto (dynamic-security plugin) as the database says:
 * a device with credentials has a client (user name and client id: its device id; its secret; a role allowing its
 * own topics only), disabled while its licence has ended; a device without credentials (licence deleted, device
 * deleted) has none. It follows the access announcements of device-credentials.ts one device at a time, and compares
 * everything at start and every few minutes (one instance of the cluster a period), so a broker that lost its state or missed an announcement converges.
 * Mosquitto disconnects a client it deletes, disables or gives a new secret.
 */
export class BrokerDevices {
  private readonly queue = new Map<string, Promise<void>>();
  private stopListening: () => void = () => {};
  private stopResyncing: () => void = () => {};
  private readonly api: DynsecApi;
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;

  constructor(api: DynsecApi, db: Db, log: FastifyBaseLogger) {
    this.api = api;
    this.db = db;
    this.log = log;
  }

  async start(): Promise<void> {
    this.stopListening = onDeviceAccessChanged((deviceId, issued) => this.sync(deviceId, issued));
    await this.resync();
    // The broker is one for the whole cluster: one instance compares it each period.
    this.stopResyncing = everyPeriodOnce(
      this.db,
      'broker device clients',
      RESYNC_EVERY_MS,
      () => this.resync(),
      (error) => this.log.warn({ error }, 'resync of broker device clients failed'),
    );
  }

  async close(): Promise<void> {
    this.stopListening();
    this.stopResyncing();
    await Promise.all(this.queue.values());
  }

  /** Makes the broker's client of one device what the database (`issued.db`: the issuing transaction) says. */
  sync(deviceId: string, issued?: { db: Db; password: string }): Promise<void> {
    const previous = this.queue.get(deviceId) ?? Promise.resolve();
    const next = previous
      .then(() => this.syncNow(deviceId, issued))
      .catch((error: unknown) =>
        this.log.error({ error, deviceId }, 'updating the device client on the broker failed'),
      )
      .finally(() => {
        if (this.queue.get(deviceId) === next) this.queue.delete(deviceId);
      });
    this.queue.set(deviceId, next);
    return next;
  }

  /** Compares every device client on the broker with the database and fixes what differs. */
  async resync(): Promise<void> {
    const [wanted, restore, [clients], [roles]] = await Promise.all([
      deviceAccessStates(this.db),
      secretRestorer(this.db),
      this.api.run([{ command: 'listClients', verbose: true, count: -1 }]),
      this.api.run([{ command: 'listRoles', count: -1 }]),
    ]);
    const onBroker = new Map((clients?.data?.clients ?? []).map((client) => [client.username, client]));
    const commands: DynsecCommand[] = [];
    const unrestorable: string[] = [];
    for (const access of wanted) {
      const planned = commandsFor(access, onBroker.get(access.deviceId), () => restore(access));
      if (planned) commands.push(...planned);
      else unrestorable.push(access.deviceId);
    }
    const known = new Set(wanted.map((access) => access.deviceId));
    for (const client of onBroker.values())
      if (client.textname === DEVICE_TEXTNAME && !known.has(client.username))
        commands.push(...removal(client.username));
    for (const role of roles?.data?.roles ?? [])
      if (role.startsWith(DEVICE_ROLE_PREFIX) && !known.has(role.slice(DEVICE_ROLE_PREFIX.length)))
        commands.push({ command: 'deleteRole', rolename: role });
    this.check(await this.api.run(commands));
    if (unrestorable.length > 0)
      this.log.warn(
        { devices: unrestorable.slice(0, 20), count: unrestorable.length },
        'devices missing on the broker whose secret cannot be given again (issued before secrets were derived): issue them new credentials',
      );
    this.log.info({ devices: wanted.length, changes: commands.length }, 'broker device clients in sync');
  }

  private async syncNow(deviceId: string, issued?: { db: Db; password: string }): Promise<void> {
    const db = issued?.db ?? this.db;
    const [access] = await deviceAccessStates(db, [deviceId]);
    if (!access) {
      this.check(await this.api.run(removal(deviceId)));
      return;
    }
    const [answer] = await this.api.run([{ command: 'getClient', username: deviceId }]);
    const restore = issued ? undefined : await secretRestorer(db);
    const planned = commandsFor(access, answer?.data?.client, () => issued?.password ?? restore?.(access));
    if (!planned) {
      this.log.warn(
        { deviceId },
        'the broker has no client of the device and its secret cannot be given again',
      );
      return;
    }
    this.check(await this.api.run(planned));
  }

  private check(answers: DynsecAnswer[]): void {
    for (const answer of answers)
      if (answer.error && !ALREADY_SO.has(answer.error))
        this.log.warn(
          { command: answer.command, error: answer.error },
          'the broker refused a device client change',
        );
  }
}

/**
 * Gives the server's own broker user (MQTT_URL's) the server role if it lacks it. Mosquitto disconnects every
 * connection of a user whose roles change — this one's too, so its answer is not awaited: `reconnected` resolves when
 * the connection is back, and the role is checked again.
 */
export async function ensureServerRole(api: DynsecApi, username: string, reconnected: () => Promise<void>) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [answer] = await api.run([{ command: 'getClient', username }]);
    const client = answer?.data?.client;
    if (!client)
      throw new Error(
        `MQTT_DYNSEC: the broker has no dynamic-security client '${username}' (MQTT_URL's user)`,
      );
    if (client.roles.some((role) => role.rolename === SERVER_ROLE)) return;
    await api.run([{ command: 'createRole', rolename: SERVER_ROLE, acls: SERVER_ACLS }]);
    const back = reconnected();
    api.send([{ command: 'addClientRole', username, rolename: SERVER_ROLE }]);
    await back;
  }
  throw new Error(`MQTT_DYNSEC: could not give '${username}' the role ${SERVER_ROLE}`);
}
