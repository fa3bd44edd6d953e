import { passkeyOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export const passkeysKey = ['passkeys'] as const;

/** The caller's passkeys (at most 10: one list, no pages). Registering, renaming and removing invalidate it. */
export const passkeysQuery = () => queryOptions({ queryKey: passkeysKey, queryFn: () => call(passkeyOps.passkeys) });
