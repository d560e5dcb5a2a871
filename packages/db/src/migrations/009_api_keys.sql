-- Organization API keys are stored like login tokens: only their SHA-256, plus the last four
-- characters to recognise a key by (the profile shows it masked). Existing keys are hashed here and
-- keep working; their plaintext is gone from the database.
ALTER TABLE organizations ADD COLUMN api_key_hash text;
ALTER TABLE organizations ADD COLUMN api_key_hint text NOT NULL DEFAULT '';
UPDATE organizations
   SET api_key_hash = encode(sha256(convert_to(api_key, 'UTF8')), 'hex'),
       api_key_hint = right(api_key, 4);
ALTER TABLE organizations ALTER COLUMN api_key_hash SET NOT NULL;
ALTER TABLE organizations ADD CONSTRAINT organizations_api_key_hash_key UNIQUE (api_key_hash);
ALTER TABLE organizations DROP COLUMN api_key;
