/** Loose email check matching what an `<input type="email">` accepts. */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** Spec section 5: Save stays disabled until every required field is filled. */
export function requiredFilled(values: Array<string | number | null | undefined | File | File[]>): boolean {
  return values.every((v) => {
    if (v === null || v === undefined) return false;
    if (typeof v === 'string') return v.trim().length > 0;
    if (Array.isArray(v)) return v.length > 0;
    return true;
  });
}

/** Spec: a brand or project is deleted only once its name is typed, compared case-insensitively. */
export function confirmNameMatches(typed: string, name: string): boolean {
  return typed.trim().toLowerCase() === name.trim().toLowerCase() && name.trim().length > 0;
}
