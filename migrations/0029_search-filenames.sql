-- Search counts the completed videos in which nothing was heard or seen from an index, not
-- from every row's media: indexing keeps the fact in `nothing_understood` from now on, and
-- the videos indexed before get it here, by the rule `media.understood` follows (no transcript
-- second heard, no scene or on-screen text second seen).
ALTER TABLE `videos` ADD `nothing_understood` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `videos_workspace_nothing_understood_idx` ON `videos` (`workspace_id`) WHERE "videos"."status" = 'completed' AND "videos"."nothing_understood" = 1;--> statement-breakpoint
UPDATE `videos` SET `nothing_understood` = 1
	WHERE json_extract(`media`, '$.extent') IS NOT NULL
	AND round(coalesce(json_extract(`media`, '$.extent.scene.seconds'), 0), 1) = 0
	AND round(coalesce(json_extract(`media`, '$.extent.ocr.seconds'), 0), 1) = 0
	AND NOT EXISTS (SELECT 1 FROM json_each(`media`, '$.extent.transcript') WHERE json_extract(value, '$.seconds') > 0);--> statement-breakpoint
-- Filenames are searchable words: one row per video, kept by triggers on `videos` from its
-- insert to its erasure (which empties the filename) or removal. The body is the filename
-- without its extension (up to 5 characters after the last dot), so "mp4" finds nothing.
-- `video_id` is indexed to find a video's row without a scan; its exact test guards against
-- two ids the porter stemmer would fold together. Hand-written: drizzle does not model
-- virtual tables or triggers.
CREATE VIRTUAL TABLE `video_filename_search` USING fts5(
	`body`,
	`workspace_id`,
	`video_id`,
	tokenize = 'porter unicode61 remove_diacritics 2'
);--> statement-breakpoint
INSERT INTO `video_filename_search` (`body`, `workspace_id`, `video_id`)
	SELECT
		CASE WHEN p > 1 AND length(`filename`) - p BETWEEN 1 AND 5 AND instr(substr(`filename`, p + 1), ' ') = 0
			THEN substr(`filename`, 1, p - 1) ELSE `filename` END,
		`workspace_id`, `id`
	FROM (SELECT *, length(rtrim(`filename`, replace(`filename`, '.', ''))) AS p FROM `videos`)
	WHERE `filename` <> '' AND `status` <> 'deleted';--> statement-breakpoint
CREATE TRIGGER `videos_filename_insert` AFTER INSERT ON `videos` WHEN new.`filename` <> '' BEGIN
	INSERT INTO `video_filename_search` (`body`, `workspace_id`, `video_id`)
		SELECT
			CASE WHEN p > 1 AND length(new.`filename`) - p BETWEEN 1 AND 5 AND instr(substr(new.`filename`, p + 1), ' ') = 0
				THEN substr(new.`filename`, 1, p - 1) ELSE new.`filename` END,
			new.`workspace_id`, new.`id`
		FROM (SELECT length(rtrim(new.`filename`, replace(new.`filename`, '.', ''))) AS p);
END;--> statement-breakpoint
CREATE TRIGGER `videos_filename_update` AFTER UPDATE OF `filename` ON `videos` BEGIN
	DELETE FROM `video_filename_search`
		WHERE `video_filename_search` MATCH 'video_id : "' || old.`id` || '"' AND `video_id` = old.`id`;
	INSERT INTO `video_filename_search` (`body`, `workspace_id`, `video_id`)
		SELECT
			CASE WHEN p > 1 AND length(new.`filename`) - p BETWEEN 1 AND 5 AND instr(substr(new.`filename`, p + 1), ' ') = 0
				THEN substr(new.`filename`, 1, p - 1) ELSE new.`filename` END,
			new.`workspace_id`, new.`id`
		FROM (SELECT length(rtrim(new.`filename`, replace(new.`filename`, '.', ''))) AS p)
		WHERE new.`filename` <> '';
END;--> statement-breakpoint
CREATE TRIGGER `videos_filename_delete` AFTER DELETE ON `videos` BEGIN
	DELETE FROM `video_filename_search`
		WHERE `video_filename_search` MATCH 'video_id : "' || old.`id` || '"' AND `video_id` = old.`id`;
END;
