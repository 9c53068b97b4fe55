ALTER TYPE "public"."incident_source" ADD VALUE 'sms';--> statement-breakpoint
ALTER TYPE "public"."scan_flag_reason" ADD VALUE 'sms_unverified';--> statement-breakpoint
CREATE TABLE "sms_pins" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"pin_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_pins" ADD CONSTRAINT "sms_pins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_texts_phone_idx" ON "inbound_texts" USING btree ("phone_number","received_at");