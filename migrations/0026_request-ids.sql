ALTER TABLE `events` ADD `request_id` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `request_id` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `work_request_id` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `request_id` text;