-- Staging writes up to 100,000 rows a file and every index costs each of them a write: a batch's rows by status
-- are read through staged_batch_row_idx (batch_id first), and an id held by the merchant's other open batches is
-- found by staged_batch_mtid_idx among their few batch ids (stage.ts).
DROP INDEX "staged_batch_status_idx";--> statement-breakpoint
DROP INDEX "staged_mtid_idx";