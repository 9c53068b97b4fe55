ALTER TYPE "public"."incident_kind" ADD VALUE 'stopped';--> statement-breakpoint
ALTER TYPE "public"."incident_kind" ADD VALUE 'off_route';--> statement-breakpoint
ALTER TYPE "public"."incident_source" ADD VALUE 'tracker';--> statement-breakpoint
CREATE TABLE "positions" (
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"speed" double precision,
	"bearing" double precision,
	"altitude" double precision,
	"accuracy" double precision,
	"battery" double precision,
	"charging" boolean,
	"source" text DEFAULT 'traccar' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_edition_id_user_id_at_pk" PRIMARY KEY("edition_id","user_id","at")
);
--> statement-breakpoint
CREATE TABLE "route_tracks" (
	"edition_id" uuid NOT NULL,
	"trial" text NOT NULL,
	"name" text NOT NULL,
	"points" jsonb NOT NULL,
	"drawn" jsonb NOT NULL,
	"length_m" double precision NOT NULL,
	"file_name" text,
	"uploaded_by" uuid,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_tracks_edition_id_trial_pk" PRIMARY KEY("edition_id","trial")
);
--> statement-breakpoint
CREATE TABLE "trackers" (
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"tracking_id" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"consent_version" text,
	"consented_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"last_lat" double precision,
	"last_lng" double precision,
	"last_at" timestamp with time zone,
	"last_speed" double precision,
	"last_accuracy" double precision,
	"last_battery" double precision,
	"last_charging" boolean,
	"last_along_m" double precision,
	"last_off_route_m" double precision,
	"moving_speed" double precision,
	"anchor_lat" double precision,
	"anchor_lng" double precision,
	"anchor_at" timestamp with time zone,
	"stop_dismissed" boolean DEFAULT false NOT NULL,
	"off_route_streak" integer DEFAULT 0 NOT NULL,
	"off_route" boolean DEFAULT false NOT NULL,
	"stop_incident_id" uuid,
	"off_route_incident_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trackers_edition_id_user_id_pk" PRIMARY KEY("edition_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_tracks" ADD CONSTRAINT "route_tracks_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_tracks" ADD CONSTRAINT "route_tracks_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_stop_incident_id_incidents_id_fk" FOREIGN KEY ("stop_incident_id") REFERENCES "public"."incidents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_off_route_incident_id_incidents_id_fk" FOREIGN KEY ("off_route_incident_id") REFERENCES "public"."incidents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "positions_edition_received_idx" ON "positions" USING btree ("edition_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trackers_tracking_id_uq" ON "trackers" USING btree ("tracking_id");--> statement-breakpoint
CREATE INDEX "trackers_user_idx" ON "trackers" USING btree ("user_id");