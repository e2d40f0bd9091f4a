-- The replay ledger is append-only like the live one (migration 0003, same
-- function): UPDATE and DELETE are refused row by row, TRUNCATE by a
-- statement trigger.
CREATE TRIGGER replay_ledger_records_no_update BEFORE UPDATE OR DELETE ON "replay_ledger_records"
  FOR EACH ROW EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER replay_ledger_records_no_truncate BEFORE TRUNCATE ON "replay_ledger_records"
  FOR EACH STATEMENT EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER replay_ledger_checkpoints_no_update BEFORE UPDATE OR DELETE ON "replay_ledger_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION breakline_ledger_refuse();
--> statement-breakpoint
CREATE TRIGGER replay_ledger_checkpoints_no_truncate BEFORE TRUNCATE ON "replay_ledger_checkpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION breakline_ledger_refuse();
