import { downloadOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

type Input = InputOf<typeof downloadOps.downloadFiles>;

/** A page of the generated files of one kind. */
export const downloadFiles = (input: Input) => call(downloadOps.downloadFiles, input);

/** The download list's query, under the key an export invalidates. */
export const downloadFilesQuery = (input: Input) =>
  queryOptions({ queryKey: [...queryKeys.downloadFiles, input], queryFn: () => downloadFiles(input) });
