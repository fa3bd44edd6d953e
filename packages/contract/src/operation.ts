import { z } from 'zod';
import type { Permission } from './permissions.ts';
import type { RoleName } from './roles.ts';

/**
 * Who may call an operation: anyone (`public`), any signed-in user (`authenticated`), one permission, any one of
 * several, or a list of roles (for platform functions the spec names no permission for, like the trial balance).
 */
export type Access = Permission | readonly Permission[] | { roles: readonly RoleName[] } | 'authenticated' | 'public';

/** An answer that is a file (a download), not JSON: its content types, for the API document. */
interface FileAnswer {
  file: readonly string[];
}

/**
 * One call of the API, written once and shared by the server (which declares its route from it and can only
 * answer what `output` allows), the web (which calls it through one typed client) and the OpenAPI document.
 */
export interface Operation {
  /** a name for the operation (camelCase), unique: the OpenAPI operationId */
  id: string;
  method: 'GET' | 'POST';
  /** under /api; `:name` marks a path parameter */
  path: string;
  /** the feature it belongs to: the OpenAPI tag */
  tag: string;
  summary: string;
  access: Access;
  /** the action written to the activity log; every operation that changes something has one */
  audit?: string;
  /** the JSON body (POST) or the query string (GET) */
  input?: z.ZodType;
  /** the path parameters, for a path with `:name` */
  params?: z.ZodType;
  /** a multipart form (the file upload) instead of JSON; `input` then describes its text fields */
  multipart?: boolean;
  /**
   * the spec sends this call as form data: besides JSON it takes `application/x-www-form-urlencoded` and
   * `multipart/form-data` (text fields only), each value a string that `input` reads as it reads JSON's
   */
  form?: boolean;
  /** the answer: a JSON schema, or a file */
  output: z.ZodType | FileAnswer;
  /** the status of a success (default 200) */
  status?: 200 | 201;
  /**
   * a `public` operation that authenticates on its own: with the merchant's API key (`X-API-Key`), or with a
   * merchant API token (`Authorization: Bearer`) from /api/token
   */
  security?: 'api-key' | 'merchant-token';
  /** an example request and answer, for the API document */
  examples?: { request?: unknown; response?: unknown };
}

/** Declares an operation, keeping its literal types for the typed client and the server's handler. */
export const operation = <const O extends Operation>(o: O): O => o;

export const isFileAnswer = (o: Operation['output']): o is FileAnswer => 'file' in (o as object);

/** What the caller sends: the input schema's input type (numbers may be strings of digits, defaults optional). */
export type InputOf<O extends Operation> = O['input'] extends z.ZodType ? z.input<O['input']> : undefined;
/** What the server's handler receives: the parsed input. */
export type ParsedInputOf<O extends Operation> = O['input'] extends z.ZodType ? z.output<O['input']> : undefined;
/** The JSON answer of the operation (a file answer is not JSON). */
export type OutputOf<O extends Operation> = O['output'] extends z.ZodType ? z.output<O['output']> : never;
/** What the server's handler may return: the answer before the schema strips what it does not declare. */
export type AnswerOf<O extends Operation> = O['output'] extends z.ZodType ? z.input<O['output']> : unknown;

// ---- building blocks of answers ----

/** `message: string[]`: what a success has to say (the spec's message[0]). */
export const messages = z.array(z.string());
/** An answer that only says something. */
export const messageAnswer = z.object({ message: messages });
/** A page of a list: its rows and the exact total. */
export const pageOf = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), total: z.number().int() });
/** A timestamp as sent: ISO 8601 in UTC. */
export const timestamp = z.string();
