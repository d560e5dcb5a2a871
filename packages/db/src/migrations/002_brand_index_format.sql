-- The engine's index format a brand's stored index was built with: an index of an older format is
-- rebuilt (and not used) after an engine upgrade.
ALTER TABLE brands ADD COLUMN index_format text;
