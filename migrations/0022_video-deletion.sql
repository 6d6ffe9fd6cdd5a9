ALTER TABLE `videos` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `erased_at` text;