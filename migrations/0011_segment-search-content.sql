-- The full-text index becomes an external-content FTS5 table over segment_text (0010), so
-- that replacing a video's rows deletes them through segment_text's video_id index: with
-- video_id UNINDEXED in FTS5, `DELETE ... WHERE video_id = ?` scanned every indexed segment
-- of every workspace. Triggers keep the index in step with segment_text; nothing writes
-- segment_search directly any more. Tokenizer and columns are unchanged, so are matches.
INSERT INTO `segment_text` (`body`, `segment_id`, `workspace_id`, `video_id`)
	SELECT `body`, `segment_id`, `workspace_id`, `video_id` FROM `segment_search`;
--> statement-breakpoint
DROP TABLE `segment_search`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `segment_search` USING fts5(
	`body`,
	`segment_id` UNINDEXED,
	`workspace_id` UNINDEXED,
	`video_id` UNINDEXED,
	content = 'segment_text',
	content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO `segment_search` (`segment_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `segment_text_insert` AFTER INSERT ON `segment_text` BEGIN
	INSERT INTO `segment_search` (rowid, `body`, `segment_id`, `workspace_id`, `video_id`)
		VALUES (new.`id`, new.`body`, new.`segment_id`, new.`workspace_id`, new.`video_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `segment_text_delete` AFTER DELETE ON `segment_text` BEGIN
	INSERT INTO `segment_search` (`segment_search`, rowid, `body`, `segment_id`, `workspace_id`, `video_id`)
		VALUES ('delete', old.`id`, old.`body`, old.`segment_id`, old.`workspace_id`, old.`video_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `segment_text_update` AFTER UPDATE ON `segment_text` BEGIN
	INSERT INTO `segment_search` (`segment_search`, rowid, `body`, `segment_id`, `workspace_id`, `video_id`)
		VALUES ('delete', old.`id`, old.`body`, old.`segment_id`, old.`workspace_id`, old.`video_id`);
	INSERT INTO `segment_search` (rowid, `body`, `segment_id`, `workspace_id`, `video_id`)
		VALUES (new.`id`, new.`body`, new.`segment_id`, new.`workspace_id`, new.`video_id`);
END;
