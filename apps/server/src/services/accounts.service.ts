import { randomBytes } from 'node:crypto';
import type { Organization, Profile, User } from '@logo-review/contract';
import type { Database, Queryable } from '@logo-review/db';
import { hashPassword } from '../auth/password.ts';
import { maskedApiKey, newApiKey } from '../auth/tokens.ts';
import {
  accountsRepository as repo,
  type OrganizationRow,
  type UserRow,
} from '../repositories/accounts.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';

export const toUser = (u: UserRow): User => ({
  id: u.id,
  username: u.username,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
});
export const toOrganization = (o: OrganizationRow): Organization => ({
  id: o.id,
  name: o.name,
  api_key: maskedApiKey(o.api_key_hint),
});

export async function profileOf(db: Queryable, userId: number): Promise<Profile> {
  const user = await repo.userById(db, userId);
  if (!user) throw new Error(`user ${userId} vanished`);
  const org = await repo.organizationById(db, user.organization_id);
  return { user: toUser(user), organization: toOrganization(org!) };
}

/** Creates the organization when missing (with its automatic placements). */
export async function ensureOrganization(
  db: Queryable,
  name: string,
): Promise<OrganizationRow & { newApiKey?: string }> {
  const existing = await repo.organizationByName(db, name);
  if (existing) return existing;
  const key = newApiKey();
  const org = await repo.insertOrganization(db, name, key);
  await placementsRepository.ensureAutomatic(db, org.id);
  return { ...org, newApiKey: key.key };
}

export interface NewUser {
  organization: string;
  username: string;
  password: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

/** Creates the user (and its organization when new: `newApiKey` is then that organization's key, shown once). */
export async function createUser(db: Database, u: NewUser): Promise<UserRow & { newApiKey?: string }> {
  if (!u.organization.trim()) throw new Error('--organization must not be empty');
  if (!/^[\w.@+-]{1,150}$/.test(u.username)) {
    throw new Error('--username may hold 1 to 150 letters, digits and . @ + - _');
  }
  if (u.password.length < 8) throw new Error('--password must have at least 8 characters');
  const hash = await hashPassword(u.password);
  return db.transaction(async (tx) => {
    if (await repo.userByUsername(tx, u.username))
      throw new Error(`A user named '${u.username}' already exists`);
    const org = await ensureOrganization(tx, u.organization.trim());
    const user = await repo.insertUser(tx, {
      organization_id: org.id,
      username: u.username,
      password_hash: hash,
      first_name: u.firstName ?? '',
      last_name: u.lastName ?? '',
      email: u.email ?? '',
    });
    return { ...user, newApiKey: org.newApiKey };
  });
}

export async function setPassword(db: Database, username: string, password: string): Promise<void> {
  if (password.length < 8) throw new Error('--password must have at least 8 characters');
  if (!(await repo.setPassword(db, username, await hashPassword(password)))) {
    throw new Error(`No user named '${username}'`);
  }
}

/**
 * First start on an empty database: one organization and an admin user, so that the start command
 * leads straight to a working login. Returns the generated password when none was configured.
 */
export async function ensureFirstUser(
  db: Database,
  username: string,
  password: string | undefined,
): Promise<{ created: boolean; generatedPassword?: string }> {
  if ((await repo.countUsers(db)) > 0) return { created: false };
  const pw = password ?? randomBytes(12).toString('base64url');
  try {
    await createUser(db, {
      organization: 'My organization',
      username,
      password: pw,
      firstName: '',
      lastName: '',
    });
  } catch (err) {
    // Another server starting at the same time created it first.
    if ((await repo.countUsers(db)) > 0) return { created: false };
    throw err;
  }
  return { created: true, generatedPassword: password ? undefined : pw };
}
