/** Helpers for component tests: a signed-in session, the app at a path, and a fake server at the fetch edge. */
import {
  ALL_PERMISSIONS,
  isFileAnswer,
  OPERATIONS,
  type Operation,
  type Permission,
  type RoleName,
  type VerifyCodeResponse,
} from '@obol/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { expect, vi } from 'vitest';
import { App } from './app/App.tsx';
import { AppProviders } from './app/providers.tsx';
import { createQueryClient } from './lib/queryClient.ts';
import { sessionStore } from './lib/session.ts';

export function verifyResponse(
  permissions: readonly Permission[] = ALL_PERMISSIONS,
  opts: { name?: string; role?: RoleName; idle?: number; email?: string } = {},
): VerifyCodeResponse {
  return {
    accessToken: 'token-1',
    user: {
      id: 1,
      name: opts.name ?? 'Ada Admin',
      email: opts.email ?? 'admin@obol.example',
      role: opts.role ?? 'Admin',
      parent: null,
      two_fa_as_otp: true,
    },
    permission: [...permissions],
    account: null,
    batch: null,
    session: {
      idle_timeout_seconds: opts.idle ?? 1800,
      expires_at: new Date(Date.now() + 8 * 3600_000).toISOString(),
    },
    message: ['Logged In'],
  };
}

export function signInAs(
  permissions: readonly Permission[] = ALL_PERMISSIONS,
  opts: Parameters<typeof verifyResponse>[1] = {},
) {
  sessionStore.signIn(verifyResponse(permissions, opts));
}

type Reply = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** the answer's text, or a stream of it (an event stream) */
  text?: string | ReadableStream<Uint8Array>;
};
export type Handler = (body: unknown, init: RequestInit) => Reply | Promise<Reply>;

/**
 * Stubs fetch with a fake server: path -> handler. Unlisted /api/auth-permission answers with the session's own
 * permissions; anything else unlisted answers 404. Returns the fetch mock to inspect calls.
 */
export function mockApi(handlers: Record<string, Handler> = {}) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    let body: unknown = undefined;
    if (typeof init.body === 'string') body = JSON.parse(init.body);
    const h =
      handlers[path] ??
      // a GET's query string: its handler is listed by the path alone
      handlers[path.split('?')[0]] ??
      (path === '/api/auth-permission'
        ? () => ({
            body: {
              status: true,
              data: { permission: sessionStore.get()?.permissions ?? [] },
              session: sessionStore.get()?.timing,
            },
          })
        : () => ({ status: 404, body: { error: ['Not found'] } }));
    const r = await h(body, init);
    checkAnswer(path, r);
    return new Response(r.text ?? JSON.stringify(r.body ?? {}), {
      status: r.status ?? 200,
      headers: r.headers ?? { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** A file an export answers with: just asked for, Initiated (the download lists' row). */
export const exportedFile = (file_name = 'export.csv') => ({
  id: 1,
  file_name,
  start_date: null,
  end_date: null,
  is_download: 0 as const,
  is_report: 0 as const,
  status: 'Initiated' as const,
  rows: null,
  format: 'csv' as const,
  created_at: '2026-11-20T10:00:00.000Z',
});

/** The operation a request path calls (its `:name` parameters matched), for checking a fake answer. */
const OPERATION_PATHS = OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/:\w+/g, '[^/]+')}$`),
}));
const operationOf = (path: string): Operation | undefined =>
  OPERATION_PATHS.find((o) => o.pattern.test(path.split('?')[0]))?.op;

/** Fake answers that the server could never give (they fail the test that made them, in test-setup.ts). */
export const impossibleAnswers: string[] = [];

/**
 * A fake success must be an answer the server may give: held to its operation's output schema, as the server's
 * own answers are (an error answer, a file or a stream is not checked).
 */
function checkAnswer(path: string, r: Reply) {
  if ((r.status ?? 200) >= 300 || r.text !== undefined || r.body === undefined) return;
  const op = operationOf(path);
  if (!op || isFileAnswer(op.output)) return;
  const parsed = op.output.safeParse(r.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`);
    impossibleAnswers.push(`${op.id} (${path}): ${issues.join('; ')}`);
  }
}

/** The calls made to one path, with their JSON bodies. */
export function callsTo(fn: ReturnType<typeof mockApi>, path: string): unknown[] {
  return fn.mock.calls
    .filter(([input]) => (typeof input === 'string' ? input : String(input)) === path)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

let currentPath = '';
function PathProbe() {
  const { pathname } = useLocation();
  useEffect(() => {
    currentPath = pathname;
  }, [pathname]);
  return null;
}
/** The router path the rendered app is at. */
export const pathname = () => currentPath;

export function renderWithProviders(ui: ReactNode, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <PathProbe />
        {ui}
      </AppProviders>
    </MemoryRouter>,
  );
}

export function renderApp(path: string) {
  return renderWithProviders(<App />, path);
}

/** The text a control's aria-describedby points at (e.g. why it is disabled), or null without one. */
export const description = (el: HTMLElement) =>
  document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

/** An item of a row's "Actions" menu (ui/RowActions): opens the menu of the row named `row` and finds the item. */
export async function rowMenuItem(row: string, text: string | RegExp) {
  await userEvent.click((await screen.findAllByRole('button', { name: `Actions for ${row}` }))[0]);
  return within(await screen.findByRole('menu', { name: `Actions for ${row}` })).findByRole('menuitem', {
    name: text,
  });
}

/** Closes an open menu (Escape). */
export async function closeMenu() {
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
}
