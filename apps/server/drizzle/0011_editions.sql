CREATE TABLE "editions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"year" integer NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"registration_opens_at" timestamp with time zone,
	"registration_closes_at" timestamp with time zone,
	"numbers_held_until" timestamp with time zone,
	"hotline" text,
	"current" boolean DEFAULT false NOT NULL,
	"copied_from" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" uuid,
	CONSTRAINT "editions_year_range" CHECK ("editions"."year" between 2000 and 2200),
	CONSTRAINT "editions_dates_order" CHECK ("editions"."starts_on" is null or "editions"."ends_on" is null or "editions"."ends_on" >= "editions"."starts_on"),
	CONSTRAINT "editions_window_order" CHECK ("editions"."registration_opens_at" is null or "editions"."registration_closes_at" is null or "editions"."registration_closes_at" > "editions"."registration_opens_at")
);
--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_copied_from_editions_id_fk" FOREIGN KEY ("copied_from") REFERENCES "public"."editions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "editions_current_uq" ON "editions" USING btree ("current") WHERE "editions"."current";--> statement-breakpoint
CREATE UNIQUE INDEX "editions_name_lower_uq" ON "editions" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "editions_year_idx" ON "editions" USING btree ("year");--> statement-breakpoint
-- The install's one event becomes its first edition, current, with the name, dates and
-- hotline staff saved (or the defaults the settings answered with while none were saved).
-- Its year: the start date's, else the year the first rider registered, else this year.
INSERT INTO "editions" ("name", "year", "starts_on", "ends_on", "hotline", "current", "updated_at", "updated_by")
SELECT s."name",
       coalesce(extract(year from s."starts_on")::int,
                (select extract(year from min(u."created_at") at time zone 'Asia/Manila')::int from "users" u where u."role" in ('participant', 'guest')),
                extract(year from now() at time zone 'Asia/Manila')::int),
       s."starts_on", s."ends_on", s."hotline", true, s."updated_at", s."updated_by"
FROM "event_settings" s WHERE s."id" = 1;--> statement-breakpoint
INSERT INTO "editions" ("name", "year", "current")
SELECT 'Mindanao Warriors Endurance Rally',
       coalesce((select extract(year from min(u."created_at") at time zone 'Asia/Manila')::int from "users" u where u."role" in ('participant', 'guest')),
                extract(year from now() at time zone 'Asia/Manila')::int),
       true
WHERE NOT EXISTS (SELECT 1 FROM "editions");--> statement-breakpoint
DROP TABLE "event_settings" CASCADE;
