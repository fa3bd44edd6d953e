import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * Where generated files (exports, reports) live. Keys are opaque paths chosen by the server
 * (`exports/2026/11/<uuid>.csv`), never a user's input.
 */
export interface FileStore {
  kind: 'local' | 's3';
  /** A stream to write a new file to; `commit` makes it visible under `key` and answers its size. */
  create(key: string): Promise<{ stream: Writable; commit(): Promise<number>; abort(): Promise<void> }>;
  open(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;
function checkKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe file key ${key}`);
}

/** A folder on disk (DATA_DIR/files by default). A file is written beside its place and renamed in when complete. */
export function localFileStore(root: string): FileStore {
  const full = (key: string) => {
    checkKey(key);
    return path.join(root, key);
  };
  return {
    kind: 'local',
    async create(key) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.partial`;
      const stream = createWriteStream(partial);
      return {
        stream,
        async commit() {
          if (!stream.writableEnded) stream.end();
          await finished(stream);
          await rename(partial, target);
          return (await stat(target)).size;
        },
        async abort() {
          stream.destroy();
          await rm(partial, { force: true });
        },
      };
    },
    async open(key) {
      const file = full(key);
      await stat(file);
      return createReadStream(file);
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
  };
}

/** The file store the configuration names: a folder under DATA_DIR unless FILES_DIR says otherwise. */
export function createFileStore(config: { filesDir: string }): FileStore {
  return localFileStore(config.filesDir);
}
