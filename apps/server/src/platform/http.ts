import { findUnsafeText, type Permission, type RoleName } from '@obol/contract';
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
}

/**
 * public: anyone; authenticated: any signed-in user; a permission, or any one of a list of permissions;
 * or one of a list of roles (for platform functions the spec gives no permission for, like the trial balance).
 */
export type Access = Permission | readonly Permission[] | { roles: readonly RoleName[] } | 'authenticated' | 'public';

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
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RouteSpec<S extends z.ZodType | undefined, A extends Access> {
  method: Method;
  url: string;
  access: A;
  /** zod schema of the JSON body (POST) or query string (GET) */
  input?: S;
  audit?: string;
  handler: (ctx: {
    input: S extends z.ZodType ? z.output<S> : undefined;
    auth: A extends 'public' ? AuthContext | null : AuthContext;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown> | unknown;
}

/**
 * The text rule of every input (decisions.md, "Input"): a 400 naming each field of the JSON body, query
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

/**
 * Declares a route: its access rule, its input schema and its audit action. The platform
 * authenticates (see auth plugin), authorises, validates and records; the handler does the work.
 */
export function route<S extends z.ZodType | undefined, A extends Access>(
  app: FastifyInstance,
  spec: RouteSpec<S, A>,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    config: { access: spec.access, audit: spec.audit, input: spec.input },
    preHandler: async (req) => {
      if (spec.access === 'public') return;
      if (!req.auth) throw unauthorized();
      if (!allows(req.auth, spec.access)) {
        req.audit.detail = `missing permission: ${describeAccess(spec.access)}`;
        throw forbidden();
      }
    },
    handler: async (req, reply) => {
      refuseUnsafeText(req, req.params, req.query, spec.method === 'GET' ? undefined : req.body);
      let input: unknown = undefined;
      if (spec.input) {
        const raw = spec.method === 'GET' ? req.query : (req.body ?? {});
        const parsed = spec.input.safeParse(raw);
        if (!parsed.success) throw fromZod(parsed.error, raw);
        input = parsed.data;
      }
      const result = await spec.handler({
        input: input as never,
        auth: req.auth as never,
        req,
        reply,
      });
      if (reply.sent) return reply;
      return result ?? { message: [] };
    },
  });
}
