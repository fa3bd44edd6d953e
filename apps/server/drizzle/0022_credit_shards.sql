-- The platform's accounts take their credits in shard rows (account_credit_shards), so that concurrent payouts,
-- fees and settlements crediting the same clearing, fee or provider account do not queue on its one row's lock.
CREATE TABLE "account_credit_shards" (
	"account_id" integer NOT NULL,
	"shard" smallint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "account_credit_shards_account_id_shard_pk" PRIMARY KEY("account_id","shard"),
	CONSTRAINT "account_credit_shards_credit" CHECK ("account_credit_shards"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_no_overdraft";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "shard_credits" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_credit_shards" ADD CONSTRAINT "account_credit_shards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_no_overdraft" CHECK ("accounts"."allow_overdraft" OR "accounts"."shard_credits" OR "accounts"."balance" >= 0);--> statement-breakpoint
UPDATE "accounts" SET "shard_credits" = true WHERE "owner_id" IS NULL AND "kind" IN ('fee', 'payout_clearing', 'refund_clearing', 'reward_clearing', 'transfer_clearing', 'accounting_clearing', 'provider');
--> statement-breakpoint
-- Moves accounts by their net movements (ids in ascending order, deltas non-zero cents), each statement with its
-- own snapshot, as the ledger's code did statement by statement, in one call: first the accounts' own rows in id
-- order (every debit, guarded unless the account may overdraw: its row plus the credit shards it sees, which
-- only grow, stays >= 0; and each credit of an account whose credits are not sharded), then the credits of the
-- platform's accounts, each to this connection's shard row (pg_backend_pid() % 16). Every transaction takes its
-- row locks in account order before its shard locks, so two never wait on each other in a cycle. Answers the ids
-- of the accounts moved; one missing was refused (a debit without the money) or does not exist.
CREATE OR REPLACE FUNCTION ledger_move_balances(ids integer[], deltas bigint[]) RETURNS integer[] AS $$
DECLARE
  v_moved integer[] := '{}';
  v_done integer;
  v_i integer;
BEGIN
  FOR v_i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
    IF deltas[v_i] > 0 THEN
      UPDATE accounts SET balance = balance + deltas[v_i] WHERE id = ids[v_i] AND NOT shard_credits
        RETURNING id INTO v_done;
    ELSE
      UPDATE accounts a SET balance = a.balance + deltas[v_i]
      WHERE a.id = ids[v_i] AND (a.allow_overdraft OR a.balance + deltas[v_i] + CASE WHEN a.shard_credits
        THEN coalesce((SELECT sum(s.amount) FROM account_credit_shards s WHERE s.account_id = a.id), 0) ELSE 0 END >= 0)
      RETURNING a.id INTO v_done;
    END IF;
    IF v_done IS NOT NULL THEN
      v_moved := v_moved || v_done;
    END IF;
  END LOOP;
  FOR v_i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
    IF deltas[v_i] > 0 AND NOT (ids[v_i] = ANY (v_moved)) THEN
      INSERT INTO account_credit_shards AS s (account_id, shard, amount)
      SELECT a.id, pg_backend_pid() % 16, deltas[v_i] FROM accounts a WHERE a.id = ids[v_i] AND a.shard_credits
      ON CONFLICT (account_id, shard) DO UPDATE SET amount = s.amount + excluded.amount
      RETURNING account_id INTO v_done;
      IF v_done IS NOT NULL THEN
        v_moved := v_moved || v_done;
      END IF;
    END IF;
  END LOOP;
  RETURN v_moved;
END;
$$ LANGUAGE plpgsql;
