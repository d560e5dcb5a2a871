import type { Queryable } from '@logo-review/db';

export interface OrganizationRow {
  id: number;
  name: string;
  /** The last characters of the API key (the key itself is stored only as a hash). */
  api_key_hint: string;
}
export interface UserRow {
  id: number;
  organization_id: number;
  username: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  email: string;
}

export const accountsRepository = {
  async countUsers(db: Queryable): Promise<number> {
    const [r] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    return r.n;
  },
  async organizationByName(db: Queryable, name: string): Promise<OrganizationRow | undefined> {
    return (
      await db.query<OrganizationRow>('SELECT id, name, api_key_hint FROM organizations WHERE name = $1', [
        name,
      ])
    )[0];
  },
  async organizationById(db: Queryable, id: number): Promise<OrganizationRow | undefined> {
    return (
      await db.query<OrganizationRow>('SELECT id, name, api_key_hint FROM organizations WHERE id = $1', [id])
    )[0];
  },
  async allOrganizationIds(db: Queryable): Promise<number[]> {
    return (await db.query<{ id: number }>('SELECT id FROM organizations ORDER BY id')).map((r) => r.id);
  },
  async insertOrganization(
    db: Queryable,
    name: string,
    key: { hash: string; hint: string },
  ): Promise<OrganizationRow> {
    const [r] = await db.query<OrganizationRow>(
      'INSERT INTO organizations(name, api_key_hash, api_key_hint) VALUES ($1, $2, $3) RETURNING id, name, api_key_hint',
      [name, key.hash, key.hint],
    );
    return r;
  },
  async organizationByApiKeyHash(db: Queryable, hash: string): Promise<OrganizationRow | undefined> {
    return (
      await db.query<OrganizationRow>(
        'SELECT id, name, api_key_hint FROM organizations WHERE api_key_hash = $1',
        [hash],
      )
    )[0];
  },
  /** Replaces the organization's API key: the old one stops working at once. */
  async setApiKey(db: Queryable, org: number, key: { hash: string; hint: string }): Promise<void> {
    await db.query('UPDATE organizations SET api_key_hash = $2, api_key_hint = $3 WHERE id = $1', [
      org,
      key.hash,
      key.hint,
    ]);
  },
  async userByUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
    return (await db.query<UserRow>('SELECT * FROM users WHERE username = $1', [username]))[0];
  },
  async userById(db: Queryable, id: number): Promise<UserRow | undefined> {
    return (await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]))[0];
  },
  async insertUser(db: Queryable, u: Omit<UserRow, 'id'>): Promise<UserRow> {
    const [r] = await db.query<UserRow>(
      `INSERT INTO users(organization_id, username, password_hash, first_name, last_name, email)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [u.organization_id, u.username, u.password_hash, u.first_name, u.last_name, u.email],
    );
    return r;
  },
  async setPassword(db: Queryable, username: string, hash: string): Promise<boolean> {
    const r = await db.query('UPDATE users SET password_hash = $2 WHERE username = $1 RETURNING id', [
      username,
      hash,
    ]);
    return r.length > 0;
  },
  async updateProfile(
    db: Queryable,
    userId: number,
    p: { first_name?: string; last_name?: string; email: string },
  ) {
    await db.query(
      `UPDATE users SET first_name = COALESCE($2, first_name), last_name = COALESCE($3, last_name), email = $4
       WHERE id = $1`,
      [userId, p.first_name ?? null, p.last_name ?? null, p.email],
    );
  },
  async insertSession(db: Queryable, tokenHash: string, userId: number, expiresAt: Date): Promise<void> {
    await db.query('INSERT INTO sessions(token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
      tokenHash,
      userId,
      expiresAt,
    ]);
  },
  async sessionCaller(
    db: Queryable,
    tokenHash: string,
  ): Promise<{ user_id: number; organization_id: number } | undefined> {
    return (
      await db.query<{ user_id: number; organization_id: number }>(
        `SELECT s.user_id, u.organization_id FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > now()`,
        [tokenHash],
      )
    )[0];
  },
  async deleteSession(db: Queryable, tokenHash: string): Promise<void> {
    await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
  },
  async setting(db: Queryable, name: string): Promise<string | undefined> {
    return (await db.query<{ value: string }>('SELECT value FROM server_settings WHERE name = $1', [name]))[0]
      ?.value;
  },
  /** Inserts unless present (another server may race us), then returns the stored value. */
  async ensureSetting(db: Queryable, name: string, value: string): Promise<string> {
    await db.query('INSERT INTO server_settings(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      value,
    ]);
    return (await this.setting(db, name)) as string;
  },
};
