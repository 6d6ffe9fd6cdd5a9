CREATE TABLE `findings` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`run_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`video_id` text NOT NULL,
	`rule_id` text NOT NULL,
	`rule_reference` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`type` text NOT NULL,
	`severity` text NOT NULL,
	`status` text NOT NULL,
	`result_state` text NOT NULL,
	`summary` text NOT NULL,
	`reason_code` text,
	`evidence` text NOT NULL,
	`metadata` text NOT NULL,
	`review_note` text,
	`reviewed_at` text,
	`reviewed_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `findings_run_rule_video_idx` ON `findings` (`run_id`,`rule_id`,`video_id`);--> statement-breakpoint
CREATE INDEX `findings_workspace_idx` ON `findings` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `findings_run_idx` ON `findings` (`run_id`,`id`);--> statement-breakpoint
ALTER TABLE `runs` ADD `workflow_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `rule_set_version_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `summary` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `report_id` text;