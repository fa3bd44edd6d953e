import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software authenticator for API tests: it makes ES256 credentials with node:crypto and answers
 * navigator.credentials.create() and .get() as a browser would send them (the `...JSON` forms), with 'none'
 * attestation. Everything is built here, byte by byte (CBOR included), so the server's checks are tested against
 * an independent implementation.
 */

const b64url = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

/** Minimal CBOR encoder: unsigned and negative integers, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const s = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, s.length), s]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts: Buffer[] = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** what the browser would put in the client data: the page's origin */
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /**
   * navigator.credentials.create(): a new credential (or `credential` again) for the options' RP ID (or `rpId`),
   * signed for `origin`.
   */
  create(
    options: CreationOptions,
    over: { rpId?: string; origin?: string; challenge?: string; credential?: SoftCredential } = {},
  ) {
    let credential = over.credential;
    if (!credential) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      credential = { id: randomBytes(32), privateKey, publicKey, counter: 0 };
      this.credentials.push(credential);
    }
    const jwk = credential.publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(over.rpId ?? options.rp.id ?? ''),
      Buffer.from([UP | UV | AT]),
      Buffer.alloc(4), // sign count 0
      Buffer.alloc(16), // AAGUID
      idLength,
      credential.id,
      cose,
    ]);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: over.challenge ?? options.challenge,
      origin: over.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      credential,
      response: {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(Buffer.from(clientDataJSON)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /**
   * navigator.credentials.get(): an assertion by `credential` (default: the first of ours the options allow),
   * its counter raised by one unless `counter` says what to send.
   */
  get(
    options: RequestOptions,
    over: { credential?: SoftCredential; counter?: number; origin?: string; challenge?: string; rpId?: string } = {},
  ) {
    const allowed = new Set(options.allowCredentials?.map((c) => c.id));
    const credential = over.credential ?? this.credentials.find((c) => allowed.size === 0 || allowed.has(b64url(c.id)));
    if (!credential) throw new Error('no credential for these options');
    credential.counter = over.counter ?? credential.counter + 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(over.rpId ?? options.rpId ?? ''), Buffer.from([UP | UV]), count]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: over.challenge ?? options.challenge,
        origin: over.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    };
  }
}
