CREATE TABLE `run_steps` (
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`video_id` text,
	`first` integer NOT NULL,
	`count` integer NOT NULL,
	`state` text NOT NULL,
	`claimed_until` text,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cached_input_tokens` integer DEFAULT 0 NOT NULL,
	`media_seconds` real DEFAULT 0 NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`limitations` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`run_id`, `position`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `run_steps_state_idx` ON `run_steps` (`run_id`,`state`,`position`);--> statement-breakpoint
ALTER TABLE `work_leases` ADD `resent_at` text;