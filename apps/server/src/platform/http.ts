import {
  findUnsafeText,
  isFileAnswer,
  type Access,
  type AnswerOf,
  type Operation,
  type ParsedInputOf,
  type Permission,
  type RoleName,
} from '@obol/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, forbidden, fromZod, unauthorized } from './errors.ts';
import type { Scope } from './scope.ts';

export interface AuthUser {
  id: number;
  name: string;
  email: string;
  role: RoleName;
  parentId: number | null;
  twoFaAsOtp: boolean;
}

export interface AuthContext {
  user: AuthUser;
  sessionId: number;
  /** when the session ends whatever its use (ms since the epoch); 0 for work done without a session */
  sessionExpiresAt: number;
  permissions: ReadonlySet<Permission>;
  scope: Scope;
}

/** What the activity log records about a request; handlers may add the target and before/after. */
export interface AuditDraft {
  actor?: { id: number | null; name?: string | null; email?: string | null };
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
  detail?: string;
  /** already written inside the command's transaction (auditInTx) */
  recorded?: boolean;
  /** this call only read (an operation that is a command only when asked to be, as /payin-rewards with an id) */
  readOnly?: boolean;
}

export type { Access };

export function allows(auth: AuthContext, access: Access): boolean {
  if (access === 'public' || access === 'authenticated') return true;
  if (typeof access === 'string') return auth.permissions.has(access);
  if (Array.isArray(access)) return access.some((p) => auth.permissions.has(p));
  return (access as { roles: readonly RoleName[] }).roles.includes(auth.user.role);
}

const describeAccess = (access: Access) =>
  typeof access === 'string'
    ? access
    : Array.isArray(access)
      ? access.join(' or ')
      : `role ${(access as { roles: readonly RoleName[] }).roles.join(' or ')}`;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    audit: AuditDraft;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** the action name written to the activity log; set on every mutating route */
    audit?: string;
    /** the zod schema of the route's input, for tools that walk the route table (the fuzz test) */
    input?: z.ZodType;
    /** the contract's operation the route serves */
    operation?: Operation;
  }
  interface FastifyInstance {
    /** how answers are held to their operation's schema: `strict` (tests, development) or `strip` (production) */
    answerMode?: AnswerMode;
  }
}

/**
 * strict: an answer outside its schema, or with a field the schema does not declare, is an error (500), so a
 * test or a developer sees the drift at once; strip: unknown fields are removed, and an answer that does not
 * parse is logged and sent as it is (production never fails a user for a schema's slip).
 */
export type AnswerMode = 'strict' | 'strip';

/**
 * The text rule of every input (docs/decisions/003-input.md): a 400 naming each field of the JSON body, query
 * string, route parameters or form fields that holds a control character or an unpaired surrogate. route()
 * applies it to every route before its schema; a handler that reads input of its own (multipart form fields)
 * calls it on what it read.
 */
export function refuseUnsafeText(req: FastifyRequest, ...inputs: unknown[]): void {
  const found = inputs.flatMap((input) => findUnsafeText(input));
  if (!found.length) return;
  const fields: Record<string, string[]> = {};
  for (const f of found) if (!fields[f.field]?.includes(f.message)) (fields[f.field] ??= []).push(f.message);
  // the activity log says what was found; the answer names the field only
  req.audit.detail = `refused text: ${found.map((f) => `${f.issue} in ${f.field}`).join('; ')}`;
  throw new ApiError(400, Object.values(fields).flat(), fields);
}

type Handler<O extends Operation> = (ctx: {
  input: ParsedInputOf<O>;
  params: O['params'] extends z.ZodType ? z.output<O['params']> : undefined;
  auth: O['access'] extends 'public' ? AuthContext | null : AuthContext;
  req: FastifyRequest;
  reply: FastifyReply;
}) => Promise<AnswerOf<O> | FastifyReply | void> | AnswerOf<O> | FastifyReply | void;

/**
 * Declares the route of a contract operation: its method and path, its access rule, its input (and path
 * parameters) and its audit action all come from the operation. The platform authenticates (see the auth
 * hook), authorises, applies the text rule, validates the input and records; the handler does the work; its
 * answer is held to the operation's output schema (see AnswerMode) and sent with the operation's status.
 */
export function route<const O extends Operation>(app: FastifyInstance, op: O, handler: Handler<O>): void {
  const refusal = (auth: AuthContext | null, req: FastifyRequest): ApiError | undefined => {
    if (!auth) return unauthorized();
    if (!allows(auth, op.access)) {
      req.audit.detail = `missing permission: ${describeAccess(op.access)}`;
      return forbidden();
    }
  };
  const attempt = (req: FastifyRequest, reply: FastifyReply) => {
    refuseUnsafeText(req, req.params, req.query, op.method === 'GET' || op.multipart ? undefined : req.body);
    const input = op.multipart ? undefined : parse(op.input, op.method === 'GET' ? req.query : (req.body ?? {}));
    const params = parse(op.params, req.params);
    return handler({ input, params, auth: req.auth, req, reply } as never);
  };
  app.route({
    method: op.method,
    url: op.path,
    config: { access: op.access, audit: op.audit, input: op.input, operation: op },
    // a file (a download) is sent as it is read: compressing it on the fly would hold its first bytes back
    ...('file' in op.output ? { compress: false as const } : {}),
    // a public operation has nothing to check; the others are checked before the handler, synchronously (a
    // callback hook: no promise and no extra turn of the event loop per request)
    ...(op.access === 'public'
      ? {}
      : {
          preHandler: (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) =>
            done(refusal(req.auth, req)),
        }),
    handler: async (req, reply) => {
      const result = await attempt(req, reply);
      if (reply.sent || result === reply) return reply;
      // a handler may answer 202 (accepted, waiting for a second person: issue 50); else the operation's status
      if (op.status && reply.statusCode === 200) reply.status(op.status);
      return heldToSchema(op, result ?? { message: [] }, app.answerMode ?? 'strict', req);
    },
  });
}

/** A route's input (or path parameters) parsed by its schema; a 400 naming the fields when it does not parse. */
function parse(schema: z.ZodType | undefined, raw: unknown) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, raw);
  return parsed.data;
}

/** The answer as its operation's output schema allows it (see AnswerMode). */
export function heldToSchema(op: Operation, result: unknown, mode: AnswerMode, req: FastifyRequest): unknown {
  if (isFileAnswer(op.output)) return result;
  // the wire form: what JSON makes of dates and undefined fields is what the schema describes (an answer that is
  // JSON already, as most are, is its own wire form: no text made and read back)
  const wire: unknown = isWire(result) ? result : JSON.parse(JSON.stringify(result));
  const parsed = op.output.safeParse(wire);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
    if (mode === 'strict') throw new Error(`${op.id} answered outside its schema: ${why}`);
    req.log.error({ operation: op.id, why }, 'answer outside its schema, sent as it is');
    return wire;
  }
  if (mode === 'strict') {
    const extra = undeclared(wire, parsed.data);
    if (extra.length) throw new Error(`${op.id} answered fields its schema does not declare: ${extra.join(', ')}`);
  }
  return parsed.data;
}

/** Paths of `given` that `kept` (the parse of it) no longer has: the fields the schema stripped. */
function undeclared(given: unknown, kept: unknown, at = ''): string[] {
  if (Array.isArray(given) && Array.isArray(kept))
    return given.flatMap((g, i) => undeclared(g, kept[i], `${at}[${i}]`));
  if (!isPlainObject(given) || !isPlainObject(kept)) return [];
  return Object.keys(given).flatMap((k) =>
    k in kept ? undeclared(given[k], kept[k], at ? `${at}.${k}` : k) : [at ? `${at}.${k}` : k],
  );
}
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether JSON.parse(JSON.stringify(v)) would be equal to v: strings, booleans, null, finite numbers (not -0), and
 * arrays (without holes) and plain objects (of Object's prototype) of them. Anything else (a Date, undefined, a
 * class instance, a `__proto__` key) is false, and the answer then goes through JSON itself.
 */
export function isWire(v: unknown): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!(i in v) || !isWire(v[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return false;
      for (const k in v) if (k === '__proto__' || !isWire((v as Record<string, unknown>)[k])) return false;
      return true;
    }
    default:
      return false;
  }
}
