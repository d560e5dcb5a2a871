import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new organization API key: `lr_` and 192 random bits in hex. Only its SHA-256 (tokenHash) and
 * its last four characters are stored; the key itself is shown once.
 */
export function newApiKey(): { key: string; hash: string; hint: string } {
  const key = `lr_${randomBytes(24).toString('hex')}`;
  return { key, hash: tokenHash(key), hint: key.slice(-4) };
}

/** How the profile shows a stored key: masked, with the last four characters to recognise it. */
export const maskedApiKey = (hint: string): string => `••••••••••••${hint}`;
