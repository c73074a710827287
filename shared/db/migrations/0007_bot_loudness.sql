ALTER TABLE `bots` ADD `loudness_normalization` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `bots` ADD `loudness_target` integer DEFAULT -16 NOT NULL;