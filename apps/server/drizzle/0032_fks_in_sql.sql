-- Two foreign keys point up the layers: an account's owner (ledger -> users) and a passkey challenge's session
-- (passkeys -> auth). They stay in the database as 0002 and 0011 made them; the tables.ts files no longer declare
-- them, so the ledger and passkeys import no higher feature (decisions/039). Nothing is dropped: each is commented,
-- which fails if it is missing.
COMMENT ON CONSTRAINT "accounts_owner_id_users_id_fk" ON "accounts" IS 'declared in SQL only (decisions/039): the ledger imports no feature';
--> statement-breakpoint
COMMENT ON CONSTRAINT "passkey_challenges_session_id_sessions_id_fk" ON "passkey_challenges" IS 'declared in SQL only (decisions/039): passkeys lie below auth';
