import type { TestServer } from '../../support/server.ts';

/** The part of JSON Schema the services' OpenAPI documents use (TypeBox output, as @fastify/swagger publishes it). */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  default?: unknown;
  description?: string;
  $ref?: string;
};

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Param = { name: string; schema: JsonSchema; required: boolean };

/** One operation of one service, as its OpenAPI document describes it. */
export type Operation = {
  /** `METHOD /svc/{service}/...{param}` — the key of the exemption table and of test names. */
  key: string;
  service: string;
  method: Method;
  /** The OpenAPI path template, with the service prefix (`/svc/core/api/v1/organizations/{org}`). */
  path: string;
  operationId: string;
  /** In the order they appear in the path. */
  pathParams: Param[];
  queryParams: Param[];
  body: JsonSchema | undefined;
  bodyRequired: boolean;
  /** The schema of the first 2xx JSON answer, if any. */
  okSchema: JsonSchema | undefined;
};

/** The services whose documents are read; every one of their operations is covered. */
export const SERVICES = [
  'core',
  'audit',
  'theme',
  'license',
  'mappings',
  'platform',
  'alarms',
  'notifications',
  'triggermanager',
  'limits',
  'vpn2',
  'vpn',
  'dashboard',
] as const;

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type OpenApiParameter = { name: string; in: string; required?: boolean; schema?: JsonSchema };
type OpenApiMedia = { schema?: JsonSchema };
type OpenApiOperation = {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, OpenApiMedia> };
  responses?: Record<string, { content?: Record<string, OpenApiMedia> }>;
};
type OpenApiDocument = {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Replaces `$ref`s to `#/components/schemas/...` by the schema they name (the documents are not recursive). */
export function dereference(
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  depth = 0,
): JsonSchema {
  if (depth > 40) throw new Error('schema nesting too deep (recursive $ref?)');
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return dereference(target, components, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  const walk = (value: JsonSchema) => dereference(value, components, depth + 1);
  if (schema.properties)
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, walk(v)]));
  if (schema.patternProperties)
    out.patternProperties = Object.fromEntries(
      Object.entries(schema.patternProperties).map(([k, v]) => [k, walk(v)]),
    );
  if (schema.items) out.items = walk(schema.items);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = walk(schema.additionalProperties);
  if (schema.anyOf) out.anyOf = schema.anyOf.map(walk);
  if (schema.oneOf) out.oneOf = schema.oneOf.map(walk);
  if (schema.allOf) out.allOf = schema.allOf.map(walk);
  return out;
}

function jsonSchemaOf(content: Record<string, OpenApiMedia> | undefined): JsonSchema | undefined {
  if (!content) return undefined;
  return content['application/json']?.schema ?? Object.values(content)[0]?.schema;
}

/** Reads the OpenAPI documents every service publishes at `/svc/{service}/docs/json` and lists their operations. */
export async function discoverOperations(server: TestServer): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const service of SERVICES) {
    const response = await server.app.inject({ method: 'GET', url: `/svc/${service}/docs/json` });
    if (response.statusCode !== 200)
      throw new Error(`/svc/${service}/docs/json answered ${response.statusCode}`);
    const doc = response.json() as OpenApiDocument;
    const components = doc.components?.schemas ?? {};
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method.toLowerCase()];
        if (!op) continue;
        const params = (op.parameters ?? []).map((p) => ({
          in: p.in,
          name: p.name,
          required: p.required === true,
          schema: dereference(p.schema ?? {}, components),
        }));
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
        const pathParams = inPath.map(
          (name) =>
            params.find((p) => p.in === 'path' && p.name === name) ?? {
              name,
              required: true,
              schema: { type: 'string' },
            },
        );
        const bodySchema = jsonSchemaOf(op.requestBody?.content);
        const okStatus = Object.keys(op.responses ?? {}).find((status) => /^2\d\d$/.test(status));
        const okContent = okStatus ? op.responses?.[okStatus]?.content : undefined;
        const okSchema = jsonSchemaOf(okContent);
        operations.push({
          key: `${method} ${path}`,
          service,
          method,
          path,
          operationId: op.operationId ?? `${method} ${path}`,
          pathParams: pathParams.map(({ name, required, schema }) => ({ name, required, schema })),
          queryParams: params
            .filter((p) => p.in === 'query')
            .map(({ name, required, schema }) => ({ name, required, schema })),
          body: bodySchema ? dereference(bodySchema, components) : undefined,
          bodyRequired: op.requestBody?.required === true,
          okSchema: okSchema ? dereference(okSchema, components) : undefined,
        });
      }
    }
  }
  return operations;
}

/** The static segment right before `{param}` in a path template (`/roles/{id}` -> `roles`). */
export function segmentBefore(path: string, param: string): string | undefined {
  const segments = path.split('/');
  const index = segments.indexOf(`{${param}}`);
  const before = index > 0 ? segments[index - 1] : undefined;
  return before && !before.startsWith('{') ? before : undefined;
}

/** The path with each `{param}` replaced by its (already chosen) raw value, URL-encoded. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter {${name}} of ${path}`);
    return encodePathValue(value);
  });
}

/**
 * encodeURIComponent leaves `.` alone, so `..` would be a dot segment a URL parser folds away (and the call would hit
 * another route). Dots are encoded too; values that are exactly `.` or `..` are never generated.
 */
export function encodePathValue(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** The object schema of an operation's query string, rebuilt from its parameters. */
export function querySchema(op: Operation): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema])),
    required: op.queryParams.filter((p) => p.required).map((p) => p.name),
  };
}

/** The object schema of an operation's path parameters. */
export function paramsSchema(op: Operation): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(op.pathParams.map((p) => [p.name, p.schema])),
    required: op.pathParams.map((p) => p.name),
  };
}
