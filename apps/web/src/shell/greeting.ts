import type { User } from '@logo-review/contract';

/**
 * Spec: 'Hello, {first} {last}!' with both names, 'Howdy {first}!' with only the first name,
 * otherwise 'Welcome {username}'.
 */
export function greeting(user: Pick<User, 'first_name' | 'last_name' | 'username'>): string {
  const first = user.first_name?.trim();
  const last = user.last_name?.trim();
  if (first && last) return `Hello, ${first} ${last}!`;
  if (first) return `Howdy ${first}!`;
  return `Welcome ${user.username}`;
}
