CREATE TABLE `rule_set_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`rulebook_id` text NOT NULL,
	`number` integer NOT NULL,
	`rule_count` integer NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rule_set_versions_rulebook_number_idx` ON `rule_set_versions` (`rulebook_id`,`number`);--> statement-breakpoint
CREATE TABLE `rulebook_csv_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`created_by` text NOT NULL,
	`delimiter` text NOT NULL,
	`columns` text NOT NULL,
	`row_count` integer NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rulebooks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text,
	`owner_id` text,
	`name` text NOT NULL,
	`content` text NOT NULL,
	`is_template` integer NOT NULL,
	`template_key` text,
	`rule_set_version_id` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rulebooks_template_key_unique` ON `rulebooks` (`template_key`);--> statement-breakpoint
CREATE INDEX `rulebooks_owner_list_idx` ON `rulebooks` (`workspace_id`,`owner_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `rulebooks_template_list_idx` ON `rulebooks` (`is_template`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `rules` (
	`rule_set_version_id` text NOT NULL,
	`position` integer NOT NULL,
	`rule_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`severity` text,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rules_set_position_idx` ON `rules` (`rule_set_version_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `rules_set_rule_idx` ON `rules` (`rule_set_version_id`,`rule_id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `owner_id` text;