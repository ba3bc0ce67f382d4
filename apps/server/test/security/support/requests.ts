import { randomUUID } from 'node:crypto';
import { emptyDocument } from '@edgeport/dashboard-schema';
import type { TestServer } from '../../support/server.ts';
import {
  fillPath,
  type JsonSchema,
  type Method,
  type Operation,
  paramsSchema,
  querySchema,
  segmentBefore,
} from './openapi.ts';
import { type SampleContext, sample } from './samples.ts';
import { acceptedBy, complaint } from './validation.ts';
import { fieldValue, kindOfName, kindOfPathParam, markersOf, pathValue, type Tenant } from './world.ts';

export const HOST = 'acme.app.localhost:8080';

/** Whose ids go where in one request. */
export type Placement = {
  /** The organization in `{org}` and in organization-valued fields. */
  orgOf: Tenant;
  /** The objects named by every other parameter and id-like field. */
  objectsOf: Tenant;
  /** The caller (its import token and application permissions are used where a body needs them). */
  caller: Tenant;
  /** `{org}` as the organization's id (default) or its resourceId. */
  orgBy?: 'id' | 'resourceId';
  /** Comma-joined list parameters (`{roles}`, `{ids}`) carry the caller's own id first, then the other one. */
  mixLists?: boolean;
  /** Parameters of an unknown kind get a random uuid instead of the best guess. */
  unknownAsRandom?: boolean;
};

export type BuiltRequest = {
  method: Method;
  url: string;
  payload: unknown;
  /** Path, query and body values, for telling echoes of the request from leaks. */
  sentText: string;
};

/** Bodies the example generator cannot build, by operationId. */
export const BODY_OVERRIDES: Record<string, (placement: Placement) => unknown> = {
  // A saved version carries a valid document of its kind (`@edgeport/dashboard-schema`), which `{}` is not.
  createDashboardVersion: () => ({ document: emptyDocument('dashboard'), comment: 'sec', current: true }),
  createFlowVersion: () => ({ document: emptyDocument('flow'), comment: 'sec', current: true }),
  createWidgetVersion: () => ({ document: emptyDocument('widget'), comment: 'sec', current: true }),
};

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Comma-joined list parameters (spec: `/securityPolicies/{ids comma-joined}`, `/roles/{roles}`). */
const isList = (name: string) => ['ids', 'roles', 'users', 'groups', 'devices', 'policies'].includes(name);

export function pathValues(op: Operation, placement: Placement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of op.pathParams) {
    const segment = segmentBefore(op.path, param.name);
    const kind = kindOfPathParam(op.path, param.name, segment);
    if (kind === 'org') {
      values[param.name] =
        placement.orgBy === 'resourceId' ? placement.orgOf.org.resourceId : placement.orgOf.org.id;
      continue;
    }
    if (!kind && !acceptedBy(param.schema, randomUUID())) {
      // Not an id (a resource type, an execution number): any valid value; it names nothing of a tenant.
      values[param.name] = String(sample(param.schema, sampleContext(op, placement), param.name));
      continue;
    }
    if (!kind && placement.unknownAsRandom) {
      values[param.name] = randomUUID();
      continue;
    }
    const value = pathValue(placement.objectsOf, kind, op.path, param.name, segment);
    values[param.name] =
      placement.mixLists && isList(param.name) && placement.objectsOf !== placement.caller
        ? `${pathValue(placement.caller, kind, op.path, param.name, segment)},${value}`
        : value;
  }
  return values;
}

function sampleContext(op: Operation, placement: Placement): SampleContext {
  return {
    unique,
    id(name) {
      if (kindOfName(name, op.path) === 'org') return placement.orgOf.org.id;
      return fieldValue(placement.objectsOf, name, op.path, placement.caller);
    },
  };
}

export function queryValues(op: Operation, placement: Placement): Record<string, string> {
  const ctx = sampleContext(op, placement);
  const values: Record<string, string> = {};
  for (const param of op.queryParams) {
    // The organization named in the query (`?organization=`) follows `orgBy` like `{org}` does.
    const org = placement.orgBy === 'resourceId' && kindOfName(param.name, op.path) === 'org';
    if (org && acceptedBy(param.schema, placement.orgOf.org.resourceId)) {
      values[param.name] = placement.orgOf.org.resourceId;
      continue;
    }
    const id = ctx.id(param.name, param.schema);
    if (id !== undefined && acceptedBy(param.schema, id)) values[param.name] = id;
    else if (param.required) values[param.name] = String(sample(param.schema, ctx, param.name));
  }
  return values;
}

export function bodyFor(op: Operation, placement: Placement): unknown {
  if (!op.body) return undefined;
  const override = BODY_OVERRIDES[op.operationId];
  return override ? override(placement) : sample(op.body, sampleContext(op, placement));
}

/** A request that passes the operation's schema validation, with ids placed as asked. */
export function buildRequest(op: Operation, placement: Placement): BuiltRequest {
  const params = pathValues(op, placement);
  const query = queryValues(op, placement);
  const payload = bodyFor(op, placement);
  assertAccepted(op, 'path parameters', paramsSchema(op), params);
  assertAccepted(op, 'query', querySchema(op), query);
  if (op.body) assertAccepted(op, 'body', op.body, payload);
  const search = new URLSearchParams(query).toString();
  const url = `${fillPath(op.path, params)}${search ? `?${search}` : ''}`;
  return {
    method: op.method,
    url,
    payload,
    sentText: [...Object.values(params), ...Object.values(query), JSON.stringify(payload ?? null)].join(' '),
  };
}

function assertAccepted(op: Operation, part: string, schema: JsonSchema, value: unknown) {
  if (!acceptedBy(schema, value))
    throw new Error(
      `harness: the generated ${part} of ${op.key} does not pass its schema (${complaint(schema, value)}): ` +
        `${JSON.stringify(value)}. Add a case to BODY_OVERRIDES or teach samples.ts the field.`,
    );
}

export type Answer = { status: number; body: string; json: unknown };

/** Requests sent by this test file so far (for the summary printed with SECURITY_DEBUG=1). */
export const sent = { count: 0 };

export async function send(
  server: TestServer,
  request: { method: Method; url: string; payload?: unknown; rawBody?: string },
  token: string | undefined,
): Promise<Answer> {
  const headers: Record<string, string> = { host: HOST };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (request.rawBody !== undefined) {
    headers['content-type'] = 'application/json';
    payload = request.rawBody;
  } else if (request.payload !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(request.payload);
  }
  sent.count++;
  let response: Awaited<ReturnType<TestServer['app']['inject']>>;
  try {
    response = await server.app.inject({
      method: request.method,
      url: request.url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
  } catch (error) {
    // The server broke the connection instead of answering (a stream failing half-way, for one).
    throw new Error(
      `${request.method} ${request.url}: no answer (${error instanceof Error ? error.message : error})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, body: response.body, json };
}

/** The foreign tenant's markers found in an answer, leaving out the ones the request itself carried. */
export function leakedMarkers(answer: Answer, foreign: Tenant, sentText: string): string[] {
  return markersOf(foreign).filter((marker) => answer.body.includes(marker) && !sentText.includes(marker));
}

/** The foreign tenant's markers the request carries outside `{org}` (references to its objects). */
export function foreignReferences(request: BuiltRequest, foreign: Tenant): string[] {
  return markersOf(foreign).filter(
    (marker) => marker !== foreign.org.id && request.sentText.includes(marker),
  );
}

/** An error answer as Fastify gives it: JSON with a non-empty `message`. */
export function hasErrorMessage(answer: Answer): boolean {
  const json = answer.json as { message?: unknown } | undefined;
  return typeof json?.message === 'string' && json.message.trim().length > 0;
}
