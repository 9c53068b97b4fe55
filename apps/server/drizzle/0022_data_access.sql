-- Who looked (DESIGN.md §12): one row per rider in every staff answer carrying their medical
-- notes, emergency contact, birthdate, licence or position. The rider's rows go with them;
-- a deleted staff member's lines keep their name.
CREATE TABLE "data_access" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid,
	"staff_name" text NOT NULL,
	"rider_id" uuid NOT NULL,
	"fields" text[] NOT NULL,
	"source" text NOT NULL,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_access" ADD CONSTRAINT "data_access_staff_id_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_access" ADD CONSTRAINT "data_access_rider_id_users_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_access_rider_idx" ON "data_access" USING btree ("rider_id","at");--> statement-breakpoint
CREATE INDEX "data_access_staff_idx" ON "data_access" USING btree ("staff_id","at");--> statement-breakpoint
CREATE INDEX "data_access_at_idx" ON "data_access" USING btree ("at");