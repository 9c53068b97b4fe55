CREATE TYPE "public"."scan_flag_reason" AS ENUM('unknown_rider', 'not_verified', 'wrong_route', 'before_opening', 'after_closing', 'out_of_order', 'rescan', 'clock_skew');--> statement-breakpoint
CREATE TYPE "public"."scan_review_decision" AS ENUM('accept', 'void');--> statement-breakpoint
CREATE TYPE "public"."scan_source" AS ENUM('camera', 'manual');--> statement-breakpoint
CREATE TYPE "public"."scan_status" AS ENUM('accepted', 'flagged');--> statement-breakpoint
CREATE TYPE "public"."station_kind" AS ENUM('kit', 'bike-check', 'start', 'checkpoint', 'finish');--> statement-breakpoint
CREATE TABLE "scans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"station_id" uuid NOT NULL,
	"rider_code" text,
	"rider_number" integer,
	"rider_id" uuid,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"device_id" text NOT NULL,
	"source" "scan_source" NOT NULL,
	"recorded_by" uuid,
	"submitted_by" uuid,
	"status" "scan_status" NOT NULL,
	"reason" "scan_flag_reason",
	"review_decision" "scan_review_decision",
	"review_note" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" "station_kind" NOT NULL,
	"day" integer DEFAULT 1 NOT NULL,
	"routes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"required" boolean DEFAULT false NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_rider_id_users_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_station_scanned_idx" ON "scans" USING btree ("station_id","scanned_at");--> statement-breakpoint
CREATE INDEX "scans_rider_scanned_idx" ON "scans" USING btree ("rider_id","scanned_at");--> statement-breakpoint
CREATE INDEX "scans_flagged_idx" ON "scans" USING btree ("received_at") WHERE "scans"."status" = 'flagged';--> statement-breakpoint
CREATE INDEX "stations_day_order_idx" ON "stations" USING btree ("day","order");--> statement-breakpoint

-- The public profile shows the last station a rider passed: scans and station names feed
-- the cached answers like the tables of migration 0002.
CREATE TRIGGER stations_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stations
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER scans_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON scans
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
