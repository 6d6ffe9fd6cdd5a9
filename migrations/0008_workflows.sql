CREATE TABLE `workflows` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`playbook` text NOT NULL,
	`rulebook_id` text NOT NULL,
	`rule_set_version_id` text NOT NULL,
	`source_ids` text NOT NULL,
	`output_modes` text NOT NULL,
	`status` text NOT NULL,
	`template_type` text NOT NULL,
	`latest_run_id` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `workflows_workspace_idx` ON `workflows` (`workspace_id`,`id`);