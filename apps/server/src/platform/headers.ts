import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from './config.ts';

/**
 * The web app's content policy: scripts only from our own files (the built index.html has no inline script),
 * styles from our files and inline (MUI/emotion inserts <style> elements at run time), images and fonts from
 * our files or data: URLs, requests only to ourselves, no plugins, no <base>, forms only to ourselves, and no
 * framing by anyone.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** a year; sent only when PUBLIC_URL is https, so a plain-http install is not locked out of itself */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** The headers every answer carries, API and web app alike. */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // the password link carries its token in the path (/new-password/<token>/<email>): with any other policy
    // the page's own API calls would send it along in Referer (same-origin requests get the full URL)
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(/^https:\/\//i.test(config.publicUrl) ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/**
 * Sets the security headers on every answer: routes, web app files, the index.html fallback, errors and 404s
 * (onRequest runs before any of them, and Fastify keeps headers already set when it answers an error).
 * Nothing here sends Access-Control-Allow-* headers: cross-origin callers get no permission (see README).
 * Register it first, before any other hook.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers);
    if (isApi(req.url)) reply.header('cache-control', API_CACHE_CONTROL);
    done();
  });
}

/**
 * Answers of the API hold balances, payouts and personal data: no cache, shared or the browser's own, may keep
 * them (a back button or a shared machine would show them again). Set on every /api answer, errors included; a
 * route that answers a file of its own sets its own (downloads: private, no-store; the API document's assets).
 * The web app's files keep theirs (web.ts: hashed /assets immutable, index.html revalidated).
 */
export const API_CACHE_CONTROL = 'no-store';

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** For answers sent outside the hooks (a malformed URL); see frameworkErrors in app.ts. */
export function setSecurityHeaders(reply: FastifyReply, config: Pick<Config, 'publicUrl'>): void {
  reply.headers(securityHeaders(config));
  if (isApi(reply.request.url)) reply.header('cache-control', API_CACHE_CONTROL);
}
