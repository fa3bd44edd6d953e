// apart from tables.ts, so that staging's reader thread (stage-reader.ts) need not load the schema

/**
 * The ids of a batch's staged rows: `seq * STAGED_ID_STRIDE + n`, n its row number (at most 99,999,999: a 50 MB
 * file has fewer lines), so a batch's rows are one range of the primary key, in the file's order.
 */
export const STAGED_ID_STRIDE = 100_000_000;
export const stagedIdOf = (seq: number, rowNumber: number) => seq * STAGED_ID_STRIDE + rowNumber;
