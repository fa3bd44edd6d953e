import type { FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import type { Config } from './config.ts';

export const REDACTED = '[redacted]';

/**
 * Web app paths whose segments after the first are secrets: the password link is
 * /new-password/<token>/<email>, and it reaches the server (and so the request log) as a page load.
 */
const SECRET_PATHS = new Set(['new-password']);

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A URL as the request log may show it: the value of every query parameter is replaced (a query may carry a
 * token, a code or an e-mail address; the names stay), and so is everything after a secret path's first segment.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let pathname = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? undefined : url.slice(q + 1);
  // the browser router matches paths case-insensitively and ignores repeated slashes, so match the same way
  const first = /^\/*([^/]*)\/?/.exec(pathname);
  if (first && SECRET_PATHS.has(decode(first[1]).toLowerCase()) && first[0].length < pathname.length) {
    pathname = `${first[0]}${REDACTED}`;
  }
  if (query === undefined) return pathname;
  const params = query
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq === -1 ? REDACTED : `${p.slice(0, eq)}=${REDACTED}`;
    });
  return `${pathname}?${params.join('&')}`;
}

/** What the request log records of a request: no headers, no body, the URL redacted. */
export function serializeRequest(req: FastifyRequest): {
  id: string;
  method: string;
  url: string;
  remoteAddress: string;
  remotePort?: number;
} {
  return {
    id: req.id,
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** headers that carry credentials, wherever a log line holds headers */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-provider-signature'];
export const REDACT_PATHS = SECRET_HEADERS.flatMap((h) => [
  `req.headers["${h}"]`,
  `headers["${h}"]`,
  `*.headers["${h}"]`,
]);

/** Fastify's logger options. `stream`: where the log goes (default stdout; the tests capture it). */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: DestinationStream) {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: serializeRequest },
    ...(stream ? { stream } : {}),
  } satisfies LoggerOptions & { stream?: DestinationStream };
}
