ALTER TABLE `uploads` ADD `title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `artist` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `album` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `cover_type` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `cover_data` blob;--> statement-breakpoint
CREATE INDEX `uploads_created_idx` ON `uploads` (`created_at`);