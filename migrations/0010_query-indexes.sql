CREATE TABLE `segment_text` (
	`id` integer PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`segment_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`video_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `segment_text_video_idx` ON `segment_text` (`video_id`);--> statement-breakpoint
CREATE INDEX `runs_status_updated_idx` ON `runs` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `videos_status_updated_idx` ON `videos` (`status`,`updated_at`);