CREATE TABLE `media_windows` (
	`video_id` text NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`plan` text NOT NULL,
	`state` text NOT NULL,
	`result` text,
	`claimed_until` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`video_id`, `position`),
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `media_windows_state_idx` ON `media_windows` (`video_id`,`state`);