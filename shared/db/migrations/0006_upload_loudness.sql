ALTER TABLE `uploads` ADD `loudness_lufs` real;--> statement-breakpoint
ALTER TABLE `uploads` ADD `loudness_peak_db` real;--> statement-breakpoint
ALTER TABLE `uploads` ADD `loudness_source` text;