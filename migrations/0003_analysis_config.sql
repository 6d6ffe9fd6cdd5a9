CREATE TABLE `profile_versions` (
	`profile_id` text NOT NULL,
	`version` integer NOT NULL,
	`instructions` text NOT NULL,
	`answer_specs` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`profile_id`, `version`),
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text,
	`description` text,
	`status` text NOT NULL,
	`anonymous` integer NOT NULL,
	`latest_version` integer NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `profiles_workspace_list_idx` ON `profiles` (`workspace_id`,`status`,`anonymous`,`id`);--> statement-breakpoint
CREATE TABLE `report_template_versions` (
	`report_template_id` text NOT NULL,
	`version` integer NOT NULL,
	`language` text NOT NULL,
	`blocks` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`report_template_id`, `version`),
	FOREIGN KEY (`report_template_id`) REFERENCES `report_templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `report_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text,
	`description` text,
	`status` text NOT NULL,
	`anonymous` integer NOT NULL,
	`latest_version` integer NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `report_templates_workspace_list_idx` ON `report_templates` (`workspace_id`,`status`,`anonymous`,`id`);