CREATE TABLE "themes" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"brand_name" text NOT NULL,
	"primary_color" text NOT NULL,
	"logo_url" text,
	"color_scheme" text DEFAULT 'auto' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;