CREATE TABLE "file_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "file_jobs_kind_ck" CHECK ("file_jobs"."kind" in ('process', 'read')),
	CONSTRAINT "file_jobs_status_ck" CHECK ("file_jobs"."status" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "payment_statement_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"statement_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"reference_number" text,
	"amount_centavos" bigint,
	"paid_at" timestamp with time zone,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "payment_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"edition_id" uuid NOT NULL,
	"preset" text NOT NULL,
	"original_name" text,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"covers_from" timestamp with time zone,
	"covers_to" timestamp with time zone,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_statements_preset_ck" CHECK ("payment_statements"."preset" in ('gcash', 'bank', 'custom'))
);
--> statement-breakpoint
CREATE TABLE "receipt_readings" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference_number" text,
	"amount_centavos" bigint,
	"paid_at" timestamp with time zone,
	"recipient" text,
	"confidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"text" text,
	"read_at" timestamp with time zone,
	"corrected_by" uuid,
	"corrected_at" timestamp with time zone,
	CONSTRAINT "receipt_readings_status_ck" CHECK ("receipt_readings"."status" in ('pending', 'read', 'unreadable'))
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "phash" text;--> statement-breakpoint
ALTER TABLE "file_jobs" ADD CONSTRAINT "file_jobs_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statement_rows" ADD CONSTRAINT "payment_statement_rows_statement_id_payment_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."payment_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD CONSTRAINT "payment_statements_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD CONSTRAINT "payment_statements_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_readings" ADD CONSTRAINT "receipt_readings_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_readings" ADD CONSTRAINT "receipt_readings_corrected_by_users_id_fk" FOREIGN KEY ("corrected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_jobs_file_kind_uq" ON "file_jobs" USING btree ("file_id","kind");--> statement-breakpoint
CREATE INDEX "file_jobs_due_idx" ON "file_jobs" USING btree ("next_attempt_at") WHERE "file_jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_statement_rows_statement_idx" ON "payment_statement_rows" USING btree ("statement_id","line");--> statement-breakpoint
CREATE INDEX "payment_statement_rows_reference_idx" ON "payment_statement_rows" USING btree ("reference_number");--> statement-breakpoint
CREATE INDEX "payment_statements_edition_idx" ON "payment_statements" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE INDEX "receipt_readings_reference_idx" ON "receipt_readings" USING btree ("reference_number");--> statement-breakpoint
CREATE INDEX "files_sha256_idx" ON "files" USING btree ("sha256");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_status_ck" CHECK ("files"."status" in ('processing', 'ready', 'failed'));--> statement-breakpoint
-- Receipts stored before the desk could read them are read by the queue once, like new ones.
INSERT INTO "receipt_readings" ("file_id") SELECT "id" FROM "files" WHERE "kind" = 'payment_receipt' AND "mime_type" LIKE 'image/%';--> statement-breakpoint
INSERT INTO "file_jobs" ("file_id", "kind") SELECT "id", 'read' FROM "files" WHERE "kind" = 'payment_receipt' AND "mime_type" LIKE 'image/%';
