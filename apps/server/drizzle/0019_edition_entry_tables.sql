-- The entry's own tables carry their edition (DESIGN.md §9): verifications, their history,
-- kits and sticker prints get an `edition_id`, like the event day in 0018. A past
-- edition's rows come back out of `edition_archive_rows` into these tables; the archive
-- keeps only the accounts as they were.
DROP INDEX "id_card_prints_user_idx";--> statement-breakpoint
DROP INDEX "verification_history_created_idx";--> statement-breakpoint
DROP INDEX "verifications_user_uq";--> statement-breakpoint
DROP INDEX "verifications_code_uq";--> statement-breakpoint
DROP INDEX "verifications_status_idx";--> statement-breakpoint
ALTER TABLE "kit_tracking" DROP CONSTRAINT "kit_tracking_pkey";--> statement-breakpoint
-- The rows there are the current edition's.
ALTER TABLE "id_card_prints" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_tracking" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_history" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_tracking" ADD CONSTRAINT "kit_tracking_edition_id_user_id_pk" PRIMARY KEY("edition_id","user_id");--> statement-breakpoint
-- Past editions' rows, out of the archive. Accounts deleted since: a row that would have gone
-- with the account (cascade) is not brought back; a reference to one is cleared (set null).
-- A staff account's own verification stayed live through each rollover and was archived too:
-- its past copies take new ids (the id is the current row's).
INSERT INTO "verifications"
  SELECT r.* FROM (
    SELECT a.edition_id, a.row, row_number() OVER (PARTITION BY a.row->>'id' ORDER BY a.edition_id) AS n
    FROM edition_archive_rows a WHERE a.table_name = 'verifications'
  ) a
  CROSS JOIN LATERAL jsonb_populate_record(null::verifications, a.row || jsonb_build_object('edition_id', a.edition_id,
    'id', CASE WHEN a.n = 1 AND NOT EXISTS (select 1 from verifications v where v.id::text = a.row->>'id')
               THEN a.row->>'id' ELSE gen_random_uuid()::text END,
    'verified_by', (select u.id from users u where u.id::text = a.row->>'verified_by'))) r
  WHERE EXISTS (select 1 from users u where u.id = r.user_id);--> statement-breakpoint
INSERT INTO "verification_history"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::verification_history, a.row || jsonb_build_object('edition_id', a.edition_id,
    'verification_id', (select v.id from verifications v where v.edition_id = a.edition_id and v.id::text = a.row->>'verification_id'),
    'user_id', (select u.id from users u where u.id::text = a.row->>'user_id'),
    'admin_id', (select u.id from users u where u.id::text = a.row->>'admin_id'))) r
  WHERE a.table_name = 'verification_history';--> statement-breakpoint
INSERT INTO "kit_tracking"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::kit_tracking, a.row || jsonb_build_object('edition_id', a.edition_id,
    'tshirt_given_by', (select u.id from users u where u.id::text = a.row->>'tshirt_given_by'),
    'vest_given_by', (select u.id from users u where u.id::text = a.row->>'vest_given_by'),
    'finisher_sleeve_given_by', (select u.id from users u where u.id::text = a.row->>'finisher_sleeve_given_by'),
    'updated_by', (select u.id from users u where u.id::text = a.row->>'updated_by'))) r
  WHERE a.table_name = 'kit_tracking' AND EXISTS (select 1 from users u where u.id = r.user_id);--> statement-breakpoint
INSERT INTO "id_card_prints"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::id_card_prints, a.row || jsonb_build_object('edition_id', a.edition_id,
    'printed_by', (select u.id from users u where u.id::text = a.row->>'printed_by'))) r
  WHERE a.table_name = 'id_card_prints' AND EXISTS (select 1 from users u where u.id = r.user_id);--> statement-breakpoint
DELETE FROM edition_archive_rows WHERE table_name IN
  ('verifications', 'verification_history', 'kit_tracking', 'id_card_prints');--> statement-breakpoint
ALTER TABLE "id_card_prints" ADD CONSTRAINT "id_card_prints_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_tracking" ADD CONSTRAINT "kit_tracking_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_history" ADD CONSTRAINT "verification_history_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "id_card_prints_user_only_idx" ON "id_card_prints" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "kit_tracking_user_idx" ON "kit_tracking" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verifications_user_idx" ON "verifications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "id_card_prints_user_idx" ON "id_card_prints" USING btree ("edition_id","user_id","printed_at");--> statement-breakpoint
CREATE INDEX "verification_history_created_idx" ON "verification_history" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_user_uq" ON "verifications" USING btree ("edition_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_code_uq" ON "verifications" USING btree ("edition_id","verification_code");--> statement-breakpoint
CREATE INDEX "verifications_status_idx" ON "verifications" USING btree ("edition_id","status","created_at");
