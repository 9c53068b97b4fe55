CREATE TABLE "edition_archive_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"edition_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"row" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edition_entries" (
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"rider_number" integer,
	"category" text,
	"kit_name" text,
	"motorcycle_model" text,
	"details" jsonb NOT NULL,
	"verification_code" text NOT NULL,
	"verification_status" text NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"result_state" text,
	"finished_at" timestamp with time zone,
	"elapsed_ms" integer,
	CONSTRAINT "edition_entries_edition_id_user_id_pk" PRIMARY KEY("edition_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "prices" jsonb;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "edition_archive_rows" ADD CONSTRAINT "edition_archive_rows_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_entries" ADD CONSTRAINT "edition_entries_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_entries" ADD CONSTRAINT "edition_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "edition_archive_rows_edition_table_idx" ON "edition_archive_rows" USING btree ("edition_id","table_name");--> statement-breakpoint
CREATE INDEX "edition_entries_user_idx" ON "edition_entries" USING btree ("user_id");--> statement-breakpoint
-- A rider finishes a day once per edition: the rollover tags the outgoing edition's
-- completions with it (metadata.edition), the current edition's carry none.
DROP INDEX IF EXISTS "activities_rally_completion_once";--> statement-breakpoint
CREATE UNIQUE INDEX "activities_rally_completion_once" ON "activities" ("user_id", (("metadata"->>'day')), (coalesce("metadata"->>'edition', '')))
  WHERE "type" = 'rally_completion';
