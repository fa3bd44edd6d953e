import { profileOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** After the password: the caller's own keys in plain text. Kept in the card's state only, never in the cache. */
export const revealApiKey = (input: InputOf<typeof profileOps.apiKey>) => call(profileOps.apiKey, input);
