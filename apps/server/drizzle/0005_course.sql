CREATE TYPE "public"."course_decision" AS ENUM('dnf', 'dns', 'clear');--> statement-breakpoint
CREATE TYPE "public"."dnf_reason" AS ENUM('withdrew', 'staff', 'missed_cutoff', 'missed_required');--> statement-breakpoint
CREATE TABLE "course_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rider_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"decision" "course_decision" NOT NULL,
	"reason" "dnf_reason",
	"note" text NOT NULL,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_rules" (
	"route_id" text PRIMARY KEY NOT NULL,
	"overdue_after_minutes" integer NOT NULL,
	"stations" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "course_decisions" ADD CONSTRAINT "course_decisions_rider_id_users_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_decisions" ADD CONSTRAINT "course_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_rules" ADD CONSTRAINT "course_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_decisions_rider_day_idx" ON "course_decisions" USING btree ("rider_id","day","recorded_at");--> statement-breakpoint
-- A rider finishes a day once: the finish scan's transaction writes the rally_completion
-- activity, and a second finish (a re-send, an accepted review) meets this index.
CREATE UNIQUE INDEX "activities_rally_completion_once" ON "activities" ("user_id", (("metadata"->>'day')))
  WHERE "type" = 'rally_completion';
--> statement-breakpoint
-- A rider's course state feeds public answers (last station, finisher): decisions and rules
-- drop the cached answers like the tables of migrations 0002 and 0004.
CREATE TRIGGER course_decisions_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON course_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER course_rules_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON course_rules
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
