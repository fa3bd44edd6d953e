import { isFileAnswer, OPERATIONS, type Access, type Operation } from '@obol/contract';
import { z } from 'zod';

type Json = Record<string, unknown>;

const schemaOf = (s: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Json;
  void _drop;
  return rest;
};

const describeAccess = (a: Access, security?: Operation['security']): string =>
  security === 'api-key'
    ? 'For a merchant or brand: its API key in `X-API-Key: <public key>:<private key>`.'
    : security === 'merchant-token'
      ? 'For a merchant or brand: `Authorization: Bearer <token>` from /api/token.'
      : a === 'public'
        ? 'Anyone.'
        : a === 'authenticated'
          ? 'Any signed-in user.'
          : typeof a === 'string'
            ? `Needs the permission '${a}'.`
            : Array.isArray(a)
              ? `Needs one of the permissions ${a.map((p) => `'${p}'`).join(', ')}.`
              : `For the roles ${(a as { roles: readonly string[] }).roles.join(', ')}.`;

/** The query or path parameters of an object schema, one OpenAPI parameter each. */
function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path'): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

function requestBodyOf(op: Operation): Json | undefined {
  if (op.method === 'GET') return undefined;
  if (op.multipart) {
    const fields = op.input ? (schemaOf(op.input, 'input') as { properties?: Json }).properties : {};
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { ...fields, file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
          },
        },
      },
    };
  }
  if (!op.input) return undefined;
  const schema = schemaOf(op.input, 'input');
  // a call the spec sends as form data takes its fields as a form too, each value a string
  const forms = op.form ? { 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } } : {};
  return { required: true, content: { 'application/json': { schema }, ...forms } };
}

const ERRORS: Record<string, string> = {
  '400': 'Invalid input: the fields and their messages',
  '401': 'No session, or it ended',
  '403': 'Missing permission',
  '404': 'Not found (also what another tenant’s object answers)',
  '409': 'Conflict: the object changed state, or an idempotency key was used for another request',
  '422': 'A business rule refused it',
  '429': 'Too many requests (Retry-After says when to try again)',
};

/** The JSON content of a request body or answer with its example, when the operation gives one. */
function withExample(body: Json, example: unknown): Json {
  const content = body.content as Record<string, Json> | undefined;
  if (example === undefined || !content?.['application/json']) return body;
  return { ...body, content: { ...content, 'application/json': { ...content['application/json'], example } } };
}

/** The OpenAPI 3.1 document of the API, made from the contract's operation table (and nothing else). */
export function openApiDocument(opts: { serverUrl: string; version: string }): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const success = isFileAnswer(op.output)
      ? {
          description: 'The file',
          content: Object.fromEntries(
            op.output.file.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]),
          ),
        }
      : { description: 'Done', content: { 'application/json': { schema: schemaOf(op.output, 'output') } } };
    const errors = Object.fromEntries(
      Object.entries(ERRORS)
        .filter(([code]) => op.access !== 'public' || (code !== '403' && (code !== '401' || !!op.security)))
        .map(([code, description]) => [
          code,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
    );
    (paths[path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      description:
        describeAccess(op.access, op.security) + (op.audit ? ` Recorded in the activity log as '${op.audit}'.` : ''),
      ...(op.access === 'public'
        ? { security: op.security === 'api-key' ? [{ apiKey: [] }] : op.security ? [{ merchantToken: [] }] : [] }
        : {}),
      parameters: [...parametersOf(op.params, 'path'), ...(op.method === 'GET' ? parametersOf(op.input, 'query') : [])],
      ...(requestBodyOf(op) ? { requestBody: withExample(requestBodyOf(op)!, op.examples?.request) } : {}),
      responses: { [String(op.status ?? 200)]: withExample(success, op.examples?.response), ...errors },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Obol API',
      version: opts.version,
      description:
        'The back-office API of Obol: payouts, pay-ins and accounting. Amounts are integer cents; times are UTC ' +
        '(ISO 8601). Every call but the public ones needs `Authorization: Bearer <token>` from /api/verify-code.',
    },
    servers: [{ url: opts.serverUrl }],
    security: [{ bearer: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A session token from /api/verify-code' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: '<public key>:<private key>' },
        merchantToken: { type: 'http', scheme: 'bearer', description: 'A merchant API token from /api/token' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'array', items: { type: 'string' } },
            fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
            request_id: { type: 'string' },
          },
        },
      },
    },
  };
}
