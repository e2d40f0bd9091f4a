-- The ledger is append-only, in the database too: no role that writes through
-- this schema can change or remove a record or a checkpoint. Rows are only
-- ever inserted; UPDATE and DELETE are refused row by row, TRUNCATE by a
-- statement trigger (row triggers do not fire on TRUNCATE).
CREATE OR REPLACE FUNCTION breakline_ledger_refuse() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_records_no_update BEFORE UPDATE OR DELETE ON "ledger_records"
  FOR EACH ROW EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER ledger_records_no_truncate BEFORE TRUNCATE ON "ledger_records"
  FOR EACH STATEMENT EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER ledger_checkpoints_no_update BEFORE UPDATE OR DELETE ON "ledger_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER ledger_checkpoints_no_truncate BEFORE TRUNCATE ON "ledger_checkpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION breakline_ledger_refuse();
