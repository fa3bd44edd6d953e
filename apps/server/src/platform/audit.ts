import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Executor } from './db.ts';
import { activityLog } from './tables.ts';

const json = (v: unknown) => (v === undefined ? null : (JSON.parse(JSON.stringify(v)) as unknown));

/**
 * The activity log, kept by the platform: every route that declares an audit action, and every refusal
 * for a missing permission, is recorded with who, what, target, before/after, outcome, time and address.
 * Written before the answer leaves, so a client never sees a success that was not recorded.
 */
export function registerAudit(app: FastifyInstance, db: Db) {
  // a callback hook: the answers that record nothing (most reads) go on at once, without a promise
  app.addHook('onSend', (req, reply, payload, done) => {
    const action = req.routeOptions.config?.audit;
    const status = reply.statusCode;
    if (!action && status !== 403) return done(null, payload);
    if (req.audit.readOnly) return done(null, payload);
    // recorded in the command's transaction; a failure after it (or of its commit) is still recorded here
    if (req.audit.recorded && status < 400) return done(null, payload);
    writeAudit(db, req, action ?? `denied ${req.method} ${req.url.split('?')[0]}`, status).then(
      () => done(null, payload),
      done,
    );
  });
}

/**
 * Writes the request's activity record now, inside the caller's transaction: a money command records itself
 * in the transaction that moves the money, so a process that dies right after the commit leaves both or
 * neither. The answer then adds no second record.
 */
export async function auditInTx(tx: Executor, req: FastifyRequest, status: number) {
  const action = req.routeOptions.config?.audit;
  if (!action) throw new Error(`${req.url} declares no audit action`);
  await writeAudit(tx, req, action, status);
  req.audit.recorded = true;
}

/**
 * Runs a command that may be held for a second person's approval, handing it `record`: the activity of the row it
 * wrote, recorded in its transaction (202 while the row has `target.heldStatus`, else 201). The answer is 202 too
 * while it waits (a retry answers the same).
 */
export async function createdOrHeld<Row extends { id: string | number; status: string }, R>(
  req: FastifyRequest,
  reply: FastifyReply,
  target: { type: string; heldStatus: string },
  run: (record: (tx: Executor, row: Row) => Promise<void>) => Promise<R & { approval_id?: number }>,
): Promise<R & { approval_id?: number }> {
  const r = await run(async (tx, row) => {
    req.audit.targetType = target.type;
    req.audit.targetId = row.id;
    req.audit.after = row;
    await auditInTx(tx, req, row.status === target.heldStatus ? 202 : 201);
  });
  if (r.approval_id) reply.status(202);
  return r;
}

async function writeAudit(db: Executor, req: FastifyRequest, action: string, status: number) {
  const a = req.audit;
  const actor = req.auth?.user ?? a.actor;
  const outcome = status < 400 ? 'success' : status === 403 ? 'denied' : 'failure';
  try {
    await db.insert(activityLog).values({
      userId: actor?.id ?? null,
      userName: actor?.name ?? null,
      userEmail: actor?.email ?? null,
      action,
      targetType: a.targetType ?? null,
      targetId: a.targetId === undefined ? null : String(a.targetId),
      before: json(a.before),
      after: json(a.after),
      outcome,
      statusCode: status,
      detail: a.detail ?? null,
      ip: req.ip,
      requestId: String(req.id),
    });
  } catch (err) {
    req.log.error({ err, action }, 'could not write the activity log');
    throw err;
  }
}
