ALTER TABLE `media_windows` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `media_windows` ADD `parts` text;