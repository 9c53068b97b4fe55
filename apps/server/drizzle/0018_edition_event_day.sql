-- The event day carries its edition (DESIGN.md §9): stations, course rules and decisions,
-- scans, incidents and SOS abuse marks get an `edition_id`. A past edition's rows stay in
-- these tables instead of JSON in `edition_archive_rows`, and every read names its edition.
--
-- What a row of the event day is written into and read from: the current edition (a past
-- one is read-only), or the past edition a staff read names (`rally.edition`, set for that
-- read's transaction only: lib/edition-scope.ts).
CREATE FUNCTION current_edition_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  select coalesce(nullif(current_setting('rally.edition', true), '')::uuid,
                  (select id from public.editions where current))
$$;
--> statement-breakpoint
ALTER TABLE "scans" DROP CONSTRAINT "scans_station_id_stations_id_fk";--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_last_station_id_stations_id_fk";--> statement-breakpoint
DROP INDEX "course_decisions_rider_day_idx";--> statement-breakpoint
DROP INDEX "scans_station_scanned_idx";--> statement-breakpoint
DROP INDEX "stations_day_order_idx";--> statement-breakpoint
DROP INDEX "stations_code_idx";--> statement-breakpoint
DROP INDEX "incidents_status_created_idx";--> statement-breakpoint
ALTER TABLE "course_rules" DROP CONSTRAINT "course_rules_pkey";--> statement-breakpoint
ALTER TABLE "stations" DROP CONSTRAINT "stations_pkey";--> statement-breakpoint
ALTER TABLE "sos_abuse_marks" DROP CONSTRAINT "sos_abuse_marks_pkey";--> statement-breakpoint
-- The rows there are the current edition's.
ALTER TABLE "course_decisions" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "course_rules" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "sos_abuse_marks" ADD COLUMN "edition_id" uuid DEFAULT current_edition_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "course_rules" ADD CONSTRAINT "course_rules_edition_id_route_id_pk" PRIMARY KEY("edition_id","route_id");--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_edition_id_id_pk" PRIMARY KEY("edition_id","id");--> statement-breakpoint
ALTER TABLE "sos_abuse_marks" ADD CONSTRAINT "sos_abuse_marks_edition_id_user_id_pk" PRIMARY KEY("edition_id","user_id");--> statement-breakpoint
-- Past editions' rows, out of the archive. Accounts deleted since: a row that would have gone
-- with the account (cascade) is not brought back; a reference to one is cleared (set null).
INSERT INTO "stations"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::stations, a.row || jsonb_build_object('edition_id', a.edition_id)) r
  WHERE a.table_name = 'stations';--> statement-breakpoint
INSERT INTO "course_rules"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::course_rules, a.row || jsonb_build_object('edition_id', a.edition_id,
    'updated_by', (select u.id from users u where u.id::text = a.row->>'updated_by'))) r
  WHERE a.table_name = 'course_rules';--> statement-breakpoint
INSERT INTO "course_decisions"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::course_decisions, a.row || jsonb_build_object('edition_id', a.edition_id,
    'decided_by', (select u.id from users u where u.id::text = a.row->>'decided_by'))) r
  WHERE a.table_name = 'course_decisions' AND EXISTS (select 1 from users u where u.id = r.rider_id);--> statement-breakpoint
INSERT INTO "scans"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::scans, a.row || jsonb_build_object('edition_id', a.edition_id,
    'rider_id', (select u.id from users u where u.id::text = a.row->>'rider_id'),
    'recorded_by', (select u.id from users u where u.id::text = a.row->>'recorded_by'),
    'submitted_by', (select u.id from users u where u.id::text = a.row->>'submitted_by'),
    'reviewed_by', (select u.id from users u where u.id::text = a.row->>'reviewed_by'))) r
  WHERE a.table_name = 'scans';--> statement-breakpoint
INSERT INTO "incidents"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::incidents, a.row || jsonb_build_object('edition_id', a.edition_id,
    'reported_by', (select u.id from users u where u.id::text = a.row->>'reported_by'),
    'acknowledged_by', (select u.id from users u where u.id::text = a.row->>'acknowledged_by'),
    'assigned_to', (select u.id from users u where u.id::text = a.row->>'assigned_to'),
    'resolved_by', (select u.id from users u where u.id::text = a.row->>'resolved_by'))) r
  WHERE a.table_name = 'incidents' AND EXISTS (select 1 from users u where u.id = r.rider_id);--> statement-breakpoint
INSERT INTO "sos_calls"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::sos_calls, a.row) r
  WHERE a.table_name = 'sos_calls' AND EXISTS (select 1 from incidents i where i.id = r.incident_id)
    AND EXISTS (select 1 from users u where u.id = r.rider_id);--> statement-breakpoint
INSERT INTO "sos_abuse_marks"
  SELECT r.* FROM edition_archive_rows a
  CROSS JOIN LATERAL jsonb_populate_record(null::sos_abuse_marks, a.row || jsonb_build_object('edition_id', a.edition_id,
    'incident_id', (select i.id from incidents i where i.id::text = a.row->>'incident_id'),
    'marked_by', (select u.id from users u where u.id::text = a.row->>'marked_by'))) r
  WHERE a.table_name = 'sos_abuse_marks' AND EXISTS (select 1 from users u where u.id = r.user_id);--> statement-breakpoint
-- An escalation is a queue's pending work, not history: a past edition's is not brought back.
DELETE FROM edition_archive_rows WHERE table_name IN
  ('stations', 'course_rules', 'course_decisions', 'scans', 'incidents', 'sos_calls', 'sos_abuse_marks', 'incident_escalations');--> statement-breakpoint
ALTER TABLE "course_decisions" ADD CONSTRAINT "course_decisions_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_rules" ADD CONSTRAINT "course_rules_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_station_fk" FOREIGN KEY ("edition_id","station_id") REFERENCES "public"."stations"("edition_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_abuse_marks" ADD CONSTRAINT "sos_abuse_marks_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_decisions_rider_day_idx" ON "course_decisions" USING btree ("edition_id","rider_id","day","recorded_at");--> statement-breakpoint
CREATE INDEX "scans_station_scanned_idx" ON "scans" USING btree ("edition_id","station_id","scanned_at");--> statement-breakpoint
CREATE INDEX "stations_day_order_idx" ON "stations" USING btree ("edition_id","day","order");--> statement-breakpoint
CREATE UNIQUE INDEX "stations_code_idx" ON "stations" USING btree ("edition_id","code");--> statement-breakpoint
CREATE INDEX "incidents_status_created_idx" ON "incidents" USING btree ("edition_id","status","created_at");
