import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';

/** Mosquitto's dynamic-security plugin: commands go to this topic, answers come back on `{topic}/response`. */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
/** A request the broker has not answered by then fails: a wrong admin user, or no plugin, answers nothing at all. */
const ANSWER_WITHIN_MS = 10_000;
/** Commands per request: one answer message per request, kept well below the broker's packet limits. */
const COMMANDS_PER_REQUEST = 100;

export type AclType =
  | 'publishClientSend'
  | 'publishClientReceive'
  | 'subscribeLiteral'
  | 'subscribePattern'
  | 'unsubscribeLiteral'
  | 'unsubscribePattern';
export type Acl = { acltype: AclType; topic: string; allow: boolean; priority?: number };

/** The commands Edgeport sends (the plugin's API has more). */
export type DynsecCommand =
  | { command: 'createRole'; rolename: string; acls: Acl[] }
  | { command: 'deleteRole'; rolename: string }
  | { command: 'listRoles'; count?: number }
  | {
      command: 'createClient';
      username: string;
      password: string;
      clientid: string;
      textname: string;
      textdescription: string;
      roles: { rolename: string }[];
    }
  | {
      command: 'modifyClient';
      username: string;
      password?: string;
      clientid?: string;
      textdescription?: string;
    }
  | { command: 'deleteClient'; username: string }
  | { command: 'enableClient'; username: string }
  | { command: 'disableClient'; username: string }
  | { command: 'addClientRole'; username: string; rolename: string }
  | { command: 'getClient'; username: string }
  | { command: 'listClients'; verbose: boolean; count?: number };

export type DynsecClient = {
  username: string;
  clientid?: string;
  textname?: string;
  textdescription?: string;
  disabled?: boolean;
  roles: { rolename: string }[];
};
export type DynsecAnswer = {
  command: string;
  error?: string;
  data?: { client?: DynsecClient; clients?: DynsecClient[]; roles?: string[] };
};

/**
 * A client of the dynamic-security API over an MQTT connection the caller owns (whose user must hold the plugin's
 * admin role). Every command carries a correlation id: with several server instances subscribed to the one response
 * topic, each takes only its own answers.
 */
export class DynsecApi {
  private readonly waiting = new Map<string, (answer: DynsecAnswer) => void>();
  private readonly client: MqttClient;

  private constructor(client: MqttClient) {
    this.client = client;
  }

  static async open(client: MqttClient): Promise<DynsecApi> {
    const api = new DynsecApi(client);
    client.on('message', (topic, payload) => {
      if (topic === RESPONSE_TOPIC) api.receive(payload);
    });
    await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    return api;
  }

  /** Runs the commands (in requests of up to 100) and answers each one's answer, in order. */
  async run(commands: DynsecCommand[]): Promise<DynsecAnswer[]> {
    const answers: DynsecAnswer[] = [];
    for (let start = 0; start < commands.length; start += COMMANDS_PER_REQUEST)
      answers.push(...(await this.request(commands.slice(start, start + COMMANDS_PER_REQUEST))));
    return answers;
  }

  /** Sends one request without waiting for its answer (for a command that disconnects this very connection). */
  send(commands: DynsecCommand[]): void {
    this.client.publish(DYNSEC_TOPIC, JSON.stringify({ commands }), { qos: 1 });
  }

  private async request(commands: DynsecCommand[]): Promise<DynsecAnswer[]> {
    const ids = commands.map(() => randomUUID());
    const answered = ids.map((id) => new Promise<DynsecAnswer>((resolve) => this.waiting.set(id, resolve)));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the broker did not answer on ${DYNSEC_TOPIC} within ${ANSWER_WITHIN_MS / 1000} s: is its dynamic-security plugin loaded and MQTT_URL's user a client with its admin role?`,
            ),
          ),
        ANSWER_WITHIN_MS,
      );
    });
    try {
      const body = commands.map((command, index) => ({ ...command, correlationData: ids[index] }));
      await Promise.race([
        this.client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: body }), { qos: 1 }),
        timeout,
      ]);
      return await Promise.race([Promise.all(answered), timeout]);
    } finally {
      clearTimeout(timer);
      for (const id of ids) this.waiting.delete(id);
    }
  }

  private receive(payload: Buffer): void {
    let responses: unknown;
    try {
      responses = (JSON.parse(payload.toString()) as { responses?: unknown }).responses;
    } catch {
      return;
    }
    if (!Array.isArray(responses)) return;
    for (const response of responses as (DynsecAnswer & { correlationData?: unknown })[]) {
      const id = typeof response.correlationData === 'string' ? response.correlationData : undefined;
      const resolve = id ? this.waiting.get(id) : undefined;
      resolve?.(response);
    }
  }
}
