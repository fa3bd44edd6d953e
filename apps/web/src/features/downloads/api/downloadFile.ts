import { downloadOps, type DownloadFile } from '@obol/contract';
import { download } from '../../../lib/api.ts';

/** Saves a completed file as a download (under the name the server gives it, or its listed name). */
export const downloadFile = (file: Pick<DownloadFile, 'id' | 'file_name'>) =>
  download(downloadOps.downloadFile, file.file_name, undefined, { id: String(file.id) });
