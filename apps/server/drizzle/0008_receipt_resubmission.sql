DROP INDEX "files_user_kind_uq";--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "files_user_kind_uq" ON "files" USING btree ("user_id","kind") WHERE "files"."superseded_at" is null;