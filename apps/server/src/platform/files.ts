import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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
          // the stream may still be opening its file: wait until it is closed, or the file would appear after the rm
          if (!stream.closed) {
            const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
            stream.destroy();
            await closed;
          }
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

export interface S3Options {
  bucket: string;
  region: string;
  /** an S3-compatible endpoint (MinIO, Ceph, R2...); unset for AWS */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** path-style addressing (bucket in the path), which most S3-compatible servers need */
  forcePathStyle: boolean;
  /** a key prefix inside the bucket */
  prefix: string;
}

/**
 * An S3-compatible bucket. A file is streamed up as a multipart upload (5 MB parts, so memory stays flat)
 * and becomes visible only when the upload completes; an aborted upload leaves nothing behind.
 */
export function s3FileStore(o: S3Options): FileStore {
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials:
      o.accessKeyId && o.secretAccessKey
        ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }
        : undefined,
  });
  const keyOf = (key: string) => {
    checkKey(key);
    return `${o.prefix}${key}`;
  };
  return {
    kind: 's3',
    async create(key) {
      const stream = new PassThrough();
      const upload = new Upload({
        client,
        params: { Bucket: o.bucket, Key: keyOf(key), Body: stream },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
      });
      let size = 0;
      stream.on('data', (c: Buffer) => (size += c.length));
      const done = upload.done();
      done.catch(() => undefined);
      return {
        stream,
        async commit() {
          if (!stream.writableEnded) stream.end();
          await done;
          return size;
        },
        async abort() {
          stream.destroy();
          await upload.abort().catch(() => undefined);
        },
      };
    },
    async open(key) {
      const r = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: keyOf(key) }));
      return r.Body as Readable;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: keyOf(key) }));
    },
  };
}

/**
 * The file store the configuration names: an S3 bucket when S3_BUCKET is set, else a folder (DATA_DIR/files or
 * FILES_DIR).
 */
export function createFileStore(config: { filesDir: string; s3?: S3Options }): FileStore {
  return config.s3 ? s3FileStore(config.s3) : localFileStore(config.filesDir);
}
