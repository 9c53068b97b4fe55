-- The entry gets a table of its own (DESIGN.md §9, issue 40): `verifications` becomes
-- `entries` and takes the entry's columns off `users` (number, rider code, category, sizes,
-- payment, kit and bike status) and the summary of `edition_entries` (the result). A past
-- edition's entries take theirs from the accounts archived at its rollover; then the JSON
-- archive and the summaries go. `users` keeps the person.
ALTER TABLE "verifications" RENAME TO "entries";--> statement-breakpoint
ALTER TABLE "entries" RENAME CONSTRAINT "verifications_pkey" TO "entries_pkey";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_rider_number_range";--> statement-breakpoint
ALTER TABLE "verification_history" DROP CONSTRAINT "verification_history_verification_id_verifications_id_fk";
--> statement-breakpoint
ALTER TABLE "entries" DROP CONSTRAINT "verifications_edition_id_editions_id_fk";
--> statement-breakpoint
ALTER TABLE "entries" DROP CONSTRAINT "verifications_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "entries" DROP CONSTRAINT "verifications_verified_by_users_id_fk";
--> statement-breakpoint
DROP INDEX "users_rider_number_uq";--> statement-breakpoint
DROP INDEX "users_rider_code_uq";--> statement-breakpoint
DROP INDEX "verifications_user_uq";--> statement-breakpoint
DROP INDEX "verifications_code_uq";--> statement-breakpoint
DROP INDEX "verifications_status_idx";--> statement-breakpoint
DROP INDEX "verifications_user_idx";--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "rider_number" integer;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "rider_code" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "category" "category";--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "kit_name" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "motorcycle_model" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "tshirt_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "custom_tshirt_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "tshirt_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "finisher_sleeve_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "custom_finisher_sleeve_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "vest_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "custom_vest_size" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "gear_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "bike_check_status" text DEFAULT 'Not Started' NOT NULL;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "rider_kit_status" text DEFAULT 'Preparing' NOT NULL;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "checkpoints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "result_state" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "elapsed_ms" integer;--> statement-breakpoint
-- The current edition: an account's entry columns are its entry's. An account with a number
-- and no entry (none is made so; kept all the same) gets one, with a fresh code.
INSERT INTO "entries" ("user_id", "verification_code", "payment_method", "payment_amount")
  SELECT u.id, 'WR-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 8)), u.payment_method, u.payment_amount
  FROM "users" u
  WHERE u.rider_number IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "entries" e WHERE e.user_id = u.id AND e.edition_id = current_edition_id());--> statement-breakpoint
UPDATE "entries" e SET
  rider_number = u.rider_number, rider_code = u.rider_code, category = u.category,
  payment_method = coalesce(e.payment_method, u.payment_method), payment_amount = coalesce(e.payment_amount, u.payment_amount),
  tshirt_size = u.tshirt_size, custom_tshirt_size = u.custom_tshirt_size, tshirt_submitted_at = u.tshirt_submitted_at,
  finisher_sleeve_size = u.finisher_sleeve_size, custom_finisher_sleeve_size = u.custom_finisher_sleeve_size,
  vest_size = u.vest_size, custom_vest_size = u.custom_vest_size, gear_submitted_at = u.gear_submitted_at,
  bike_check_status = u.bike_check_status, rider_kit_status = u.rider_kit_status, checkpoints = u.checkpoints
FROM "users" u
WHERE u.id = e.user_id AND e.edition_id = current_edition_id();--> statement-breakpoint
-- A past edition's entry missing its verification record (none should be) comes back from its summary.
INSERT INTO "entries" ("id", "edition_id", "user_id", "verification_code", "status", "created_at", "updated_at")
  SELECT s.entry_id, s.edition_id, s.user_id, s.verification_code, s.verification_status::verification_status, s.entered_at, s.entered_at
  FROM "edition_entries" s
  WHERE NOT EXISTS (SELECT 1 FROM "entries" e WHERE e.user_id = s.user_id AND e.edition_id = s.edition_id)
    AND NOT EXISTS (SELECT 1 FROM "entries" e WHERE e.id = s.entry_id);--> statement-breakpoint
-- A past edition: the accounts as they stood at its rollover hold its entries' columns.
UPDATE "entries" e SET
  rider_number = (a.row->>'rider_number')::integer, rider_code = a.row->>'rider_code', category = (a.row->>'category')::category,
  kit_name = a.row->>'kit_name', motorcycle_model = a.row->>'motorcycle_model',
  payment_method = coalesce(e.payment_method, (a.row->>'payment_method')::payment_method),
  payment_amount = coalesce(e.payment_amount, (a.row->>'payment_amount')::integer),
  tshirt_size = a.row->>'tshirt_size', custom_tshirt_size = a.row->>'custom_tshirt_size',
  tshirt_submitted_at = (a.row->>'tshirt_submitted_at')::timestamptz,
  finisher_sleeve_size = a.row->>'finisher_sleeve_size', custom_finisher_sleeve_size = a.row->>'custom_finisher_sleeve_size',
  vest_size = a.row->>'vest_size', custom_vest_size = a.row->>'custom_vest_size',
  gear_submitted_at = (a.row->>'gear_submitted_at')::timestamptz,
  bike_check_status = coalesce(a.row->>'bike_check_status', 'Not Started'),
  rider_kit_status = coalesce(a.row->>'rider_kit_status', 'Preparing'),
  checkpoints = coalesce((a.row->>'checkpoints')::integer, 0)
FROM "edition_archive_rows" a
WHERE a.table_name = 'users' AND e.edition_id = a.edition_id AND e.user_id::text = a.row->>'id';--> statement-breakpoint
-- And their summaries the result, and what the archive lacked.
UPDATE "entries" e SET
  rider_number = coalesce(e.rider_number, s.rider_number), category = coalesce(e.category, s.category::category),
  kit_name = coalesce(e.kit_name, s.kit_name), motorcycle_model = coalesce(e.motorcycle_model, s.motorcycle_model),
  payment_method = coalesce(e.payment_method, (s.details->>'paymentMethod')::payment_method),
  payment_amount = coalesce(e.payment_amount, (s.details->>'paymentAmount')::integer),
  tshirt_size = coalesce(e.tshirt_size, s.details->>'tshirtSize'),
  custom_tshirt_size = coalesce(e.custom_tshirt_size, s.details->>'customTshirtSize'),
  finisher_sleeve_size = coalesce(e.finisher_sleeve_size, s.details->>'finisherSleeveSize'),
  custom_finisher_sleeve_size = coalesce(e.custom_finisher_sleeve_size, s.details->>'customFinisherSleeveSize'),
  vest_size = coalesce(e.vest_size, s.details->>'vestSize'),
  custom_vest_size = coalesce(e.custom_vest_size, s.details->>'customVestSize'),
  result_state = s.result_state, finished_at = s.finished_at, elapsed_ms = s.elapsed_ms
FROM "edition_entries" s
WHERE e.edition_id = s.edition_id AND e.user_id = s.user_id;--> statement-breakpoint
DROP TABLE "edition_archive_rows" CASCADE;--> statement-breakpoint
DROP TABLE "edition_entries" CASCADE;--> statement-breakpoint
ALTER TABLE "verification_history" ADD CONSTRAINT "verification_history_verification_id_entries_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "entries_user_uq" ON "entries" USING btree ("edition_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_code_uq" ON "entries" USING btree ("edition_id","verification_code");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_rider_number_uq" ON "entries" USING btree ("edition_id","rider_number");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_rider_code_uq" ON "entries" USING btree ("edition_id","rider_code");--> statement-breakpoint
CREATE INDEX "entries_status_idx" ON "entries" USING btree ("edition_id","status","created_at");--> statement-breakpoint
CREATE INDEX "entries_user_idx" ON "entries" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "category";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "rider_number";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "rider_code";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "payment_method";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "payment_amount";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "tshirt_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "custom_tshirt_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "tshirt_submitted_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "finisher_sleeve_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "custom_finisher_sleeve_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "vest_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "custom_vest_size";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "gear_submitted_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "bike_check_status";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "rider_kit_status";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "checkpoints";--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_rider_number_range" CHECK ("entries"."rider_number" is null or ("entries"."rider_number" between 1 and 1000));