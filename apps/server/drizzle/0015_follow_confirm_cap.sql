CREATE TABLE "follow_confirm_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mailbox_hash" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "follow_confirm_sends_mailbox_idx" ON "follow_confirm_sends" USING btree ("mailbox_hash","sent_at");--> statement-breakpoint
CREATE INDEX "follow_confirm_sends_sent_idx" ON "follow_confirm_sends" USING btree ("sent_at");