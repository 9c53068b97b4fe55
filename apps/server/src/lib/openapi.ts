// The OpenAPI document at /api/docs, generated from the same declarations the server
// enforces, in one place so that every route (including those added later) is described
// with no per-route work:
// - security and the permission an operation needs come from its `config.access`
//   (lib/authorize.ts): public operations declare `security: []`, others bearer;
// - the error statuses an operation can answer are derived from its access and its
//   inputs (plus what the route names in `responses(ok, ...extra)`), and added to the
//   route's own response schemas, so the serializer and the document agree;
// - multipart bodies come from `config.multipart` (lib/multipart.ts), the very
//   declaration `readMultipart` enforces;
// - a state-changing route without a body schema declares an optional `{}` body, which
//   it ignores (the web client sends one; validating proxies refuse undeclared bodies).
// The validating test harness (test/openapi-validation.ts) holds all API test traffic
// to this document.

import type { SwaggerOptions } from '@fastify/swagger';
import { errorEnvelope } from '@rally/shared/contracts/common';
import { PERMISSIONS } from '@rally/shared/permissions';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Access, describeAccess } from './authorize';
import type { MultipartSpec } from './multipart';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isApiRoute(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

function methodsOf(route: { method: string | string[] }): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
}

interface RouteShape {
  access: Access;
  /** Whether the method carries a body (every such operation declares one, maybe `{}`). */
  bodyMethod: boolean;
  body: boolean;
  querystring: boolean;
  params: boolean;
  multipart: boolean;
  /** A staff route (`/api/admin/...`): it takes `?edition=` (lib/edition-read.ts). */
  staff?: boolean;
}

/**
 * The error statuses an operation can answer whatever its service does: 400 always (the
 * central control-character check reads every query string, even one the route ignores,
 * and the JSON parser every body), 401 unless public, 403 when its access names more than a session,
 * 404 when its path names a resource, 413/415 when it takes a body, 429 always (the
 * global rate limit) and 500 always. A route adds what its service raises beyond these
 * (a 409, a 404 without a path parameter, a 403 of a public or merely signed-in route).
 */
export function derivedErrorStatuses(shape: RouteShape): ErrorStatus[] {
  const statuses: ErrorStatus[] = [];
  const takesBody = shape.body || shape.multipart || shape.bodyMethod;
  statuses.push(400);
  if (shape.access !== 'public') statuses.push(401);
  if (typeof shape.access === 'object' || shape.access === 'verified') statuses.push(403);
  if (shape.params) statuses.push(404);
  if (takesBody) statuses.push(413, 415);
  // `?edition=`: an unknown edition is 404, a write to a past one 409 (lib/edition-read.ts).
  if (shape.staff) statuses.push(404, 409);
  statuses.push(429, 500);
  return statuses;
}

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'The request is invalid (message names the problem)',
  401: 'No valid session: log in again',
  403: 'The signed-in account may not do this',
  404: 'Not found',
  409: 'Conflicts with the current state (message says why)',
  413: 'The body or an uploaded file is too large',
  415: 'The body or an uploaded file is of a type this operation does not take',
  429: 'Too many requests: try again later',
  500: 'Something went wrong on the server',
};

/** The envelope of an error status, described for the document. */
export function errorResponse(status: ErrorStatus) {
  return errorEnvelope.describe(ERROR_DESCRIPTIONS[status]);
}

/**
 * Adds the derived error envelopes to every API route's response schemas as it is
 * registered (before schemas compile), so answers are serialized and documented alike.
 */
export const openapiRoutesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const access = route.config?.access;
    if (!access) return; // authorize.ts refuses such a route
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const declared = (schema.response ?? {}) as Record<string, unknown>;
    const response: Record<string, unknown> = { ...declared };
    for (const status of derivedErrorStatuses({
      access,
      bodyMethod: methodsOf(route).some((m) => BODY_METHODS.has(m)),
      body: !!schema.body,
      querystring: !!schema.querystring,
      params: !!schema.params,
      multipart: !!route.config?.multipart,
      staff: route.url.startsWith('/api/admin/'),
    })) {
      if (!(status in response)) response[status] = errorResponse(status);
    }
    route.schema = { ...schema, response, ...editionQuery(route.url, schema.querystring) };
  });
});

const editionParam = z
  .uuid()
  .optional()
  .describe('A past edition to read (its id): the answer is that edition’s, from its archive. Read-only.');

/** Documents `?edition=` on a staff route whose query is an object (the others take it undocumented). */
function editionQuery(url: string, querystring: unknown) {
  if (!url.startsWith('/api/admin/')) return {};
  if (querystring === undefined) return {};
  if (!(querystring instanceof z.ZodObject)) return {};
  return { querystring: querystring.extend({ edition: editionParam }) };
}

/** `GET /api/users/:id/profile` → `getUsersByIdProfile`: stable, unique, readable in a generated client. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]?.toUpperCase() + w.slice(1))].join('');
}

function describeAccessForPeople(access: Access): string {
  if (access === 'public') return 'Public: no token needed.';
  if (access === 'authenticated') return 'Needs a bearer token of any signed-in account.';
  if (access === 'verified') return 'Needs a bearer token of an account whose payment is verified.';
  if ('permission' in access) {
    return `Needs a bearer token of a role holding the \`${access.permission}\` permission (${PERMISSIONS[access.permission].join(', ')}).`;
  }
  if ('anyPermission' in access) {
    const described = access.anyPermission.map((p) => `\`${p}\` (${PERMISSIONS[p].join(', ')})`);
    return `Needs a bearer token of a role holding any of the permissions ${described.join(' or ')}.`;
  }
  return `Needs a bearer token of one of the roles: ${access.roles.join(', ')}.`;
}

/** A binary part of a multipart body, with the limits the server enforces. */
function filePartSchema(rule: MultipartSpec['files'][string]) {
  return {
    type: 'string',
    format: 'binary',
    maxLength: rule.maxBytes,
    description: `${rule.description} Accepted: ${rule.mediaTypes.join(', ')} (read from the file's bytes, whatever the part's Content-Type says); at most ${rule.maxBytes} bytes.`,
  };
}

type JsonObject = Record<string, unknown>;
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function toJson(input: TransformInput, zodSchema: z.ZodType): JsonObject {
  const { schema } = jsonSchemaTransform({ ...input, schema: { body: zodSchema } });
  return (schema as { body: JsonObject }).body;
}

function multipartBody(input: TransformInput, spec: MultipartSpec) {
  const fields = spec.fields ? toJson(input, spec.fields) : { type: 'object', properties: {} };
  const properties: JsonObject = { ...((fields.properties as JsonObject | undefined) ?? {}) };
  const required = [...((fields.required as string[] | undefined) ?? [])];
  const encoding: Record<string, { contentType: string }> = {};
  for (const [name, rule] of Object.entries(spec.files)) {
    properties[name] = filePartSchema(rule);
    encoding[name] = { contentType: rule.mediaTypes.join(', ') };
    if (rule.required) required.push(name);
  }
  const body: JsonObject = { type: 'object', properties };
  if (required.length > 0) body.required = required;
  return { body, encoding };
}

/**
 * Media types a route sends as stored bytes with an ETag, declared with
 * `...storedFileResponses(types)` in its schema. Another raw answer (a stream, an export)
 * declares `produces: [type]` and no 2xx schema.
 */
export function storedFileResponses(mediaTypes: readonly string[]) {
  return { produces: [...mediaTypes], 'x-etag': true };
}

/** Turns each route's schema (zod) into its operation, adding what the route table knows. */
export function openapiTransform(input: TransformInput) {
  const result = jsonSchemaTransform(input);
  const route = input.route as RouteOptions | undefined;
  if (!route || !isApiRoute(input.url) || !result.schema || (result.schema as JsonObject).hide) return result;
  const schema = { ...(result.schema as JsonObject) };
  const access = route.config?.access;
  const method = methodsOf(route).find((m) => m !== 'HEAD') ?? 'GET';
  schema.operationId = operationIdOf(method, input.url);
  if (access) {
    schema.security = access === 'public' ? [] : [{ bearer: [] }];
    schema['x-access'] = describeAccess(access);
    if (typeof access === 'object' && 'permission' in access) {
      schema['x-permission'] = access.permission;
      schema['x-roles'] = [...PERMISSIONS[access.permission]];
    } else if (typeof access === 'object' && 'anyPermission' in access) {
      schema['x-permission'] = [...access.anyPermission];
      schema['x-roles'] = [...new Set(access.anyPermission.flatMap((p) => PERMISSIONS[p]))];
    } else if (typeof access === 'object') {
      schema['x-roles'] = [...access.roles];
    }
    const who = describeAccessForPeople(access);
    schema.description = schema.description ? `${schema.description}\n\n${who}` : who;
  }
  const multipart = route.config?.multipart;
  if (multipart) {
    const { body, encoding } = multipartBody(input, multipart);
    schema.body = body;
    schema.consumes = ['multipart/form-data'];
    schema['x-multipart-encoding'] = encoding;
  } else if (!schema.body && BODY_METHODS.has(method)) {
    // Validating proxies refuse a body the document does not mention, and the web client
    // sends `{}` on every body-less call: the server accepts and ignores it, and says so.
    schema.body = { type: 'object', description: 'Takes no data: send no body, or `{}` (ignored).' };
    schema['x-optional-body'] = true;
  } else if (schema.body && (input.schema as { body?: z.ZodType }).body?.safeParse(undefined).success) {
    schema['x-optional-body'] = true;
  }
  const response = { ...((schema.response as JsonObject | undefined) ?? {}) };
  const produces = schema.produces as string[] | undefined;
  if (produces && !Object.keys(response).some((s) => s.startsWith('2'))) {
    // Raw answers (stored files, and e.g. `produces: ['text/event-stream']` for a stream).
    response[200] = {
      description: schema['x-etag']
        ? 'The stored file, as uploaded (images re-encoded)'
        : `The answer, as ${produces.join(' or ')}`,
      content: Object.fromEntries(produces.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
    };
    delete schema.produces;
  }
  if (response[204]) {
    // No Content: the document says no body, whatever schema the route gives its serializer.
    const said = (response[204] as JsonObject).description;
    response[204] = { type: 'null', description: typeof said === 'string' ? said : 'No content' };
  }
  if (schema['x-etag']) {
    response[304] = { type: 'null', description: 'Not Modified: the If-None-Match ETag still matches' };
    delete schema['x-etag'];
  }
  schema.response = response;
  return { ...result, schema };
}

/**
 * OpenAPI 3.0 ignores `nullable` on a schema without `type`, so zod's `x.nullable()` of a
 * union (`{ nullable: true, anyOf }`) would claim null is refused while the server takes
 * it (or sends it). Null becomes one more branch of the union, the one form 3.0 tools
 * read alike.
 */
function fixUntypedNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) fixUntypedNullable(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonObject;
  for (const value of Object.values(schema)) fixUntypedNullable(value);
  // An enum constrains null too, so a nullable enum lists it (as OpenAPI 3.0.3 clarifies).
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  if (schema.nullable === true && schema.type === undefined) {
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    const nullBranch = { type: 'string', nullable: true, enum: [null] };
    delete schema.nullable;
    if (branches) branches.push(nullBranch);
    else {
      const rest = { ...schema };
      for (const key of Object.keys(schema)) delete schema[key];
      schema.anyOf = [rest, nullBranch];
    }
  }
}

/** Document-wide finishing: component schemas, and what fastify-swagger has no field for. */
export function openapiTransformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const document = jsonSchemaTransformObject(input) as JsonObject & {
    paths?: Record<string, Record<string, JsonObject>>;
  };
  fixUntypedNullable(document.paths);
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const requestBody = operation.requestBody as
        | { required?: boolean; content?: Record<string, JsonObject> }
        | undefined;
      const encoding = operation['x-multipart-encoding'];
      if (encoding && requestBody?.content?.['multipart/form-data']) {
        requestBody.content['multipart/form-data'].encoding = encoding;
      }
      delete operation['x-multipart-encoding'];
      if (operation['x-optional-body'] && requestBody) requestBody.required = false;
      delete operation['x-optional-body'];
    }
  }
  return document;
}

export const swaggerOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.0.3',
    info: {
      title: 'Rally platform API',
      version: '1.0.0',
      description:
        'Registration, verification and rider community of the Mindanao endurance rally. Every answer is JSON `{ success, data, message? }`, or `{ success: false, message, code? }` for an error. Each operation names its access: `security: []` is public; others need `Authorization: Bearer <token>` from login or registration, and `x-permission` names the permission of the staff matrix it needs (`x-roles` the roles holding it).',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  },
  transform: openapiTransform,
  transformObject: openapiTransformObject,
};
