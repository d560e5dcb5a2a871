/**
 * Groups brands by same or similar name (spec: Brands). Two names are similar when, after
 * folding case, accents and punctuation ("Coca-Cola" = "coca cola"):
 *  - they are equal;
 *  - one starts with the other and the shorter has at least 4 characters ("Nike" / "Nike Football");
 *  - both have at least 5 characters and differ by one typo: one insertion, deletion, substitution
 *    or swap of neighbours ("Adidas" / "Addidas");
 *  - their first words have at least 5 characters and are equal or one typo apart
 *    ("Adidas" / "Addidas Originals").
 * Similarity is transitive through union-find, so a chain of variants forms one group. Brands
 * similar to no other one go to 'Single Brands'. Runs in O(n·L) (plus prefix runs) so 1,000+
 * brands group in a few milliseconds.
 */
export interface NamedBrand {
  id: number;
  name: string;
}

export interface BrandGroup<T extends NamedBrand> {
  title: string;
  brands: T[];
}

export const SINGLE_BRANDS = 'Single Brands';
const MIN_PREFIX = 4;
const MIN_TYPO = 5;

function foldWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function foldName(name: string): string {
  return foldWords(name).join('');
}

class UnionFind {
  private readonly parent: number[];
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]];
      i = this.parent[i];
    }
    return i;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[rb] = ra;
  }
}

/** Single-character deletions, plus transposition-friendly variants come for free from shared deletions. */
function deletions(key: string): string[] {
  const out = [key];
  for (let i = 0; i < key.length; i += 1) out.push(key.slice(0, i) + key.slice(i + 1));
  return out;
}

export function groupBrands<T extends NamedBrand>(
  brands: readonly T[],
): { groups: BrandGroup<T>[]; singles: T[] } {
  const keys = brands.map((b) => foldName(b.name));
  const uf = new UnionFind(brands.length);

  // Equal keys and one-typo neighbours meet in the same deletion bucket.
  const byVariant = new Map<string, number>();
  const byKey = new Map<string, number>();
  const addVariants = (key: string, i: number) => {
    if (key.length < MIN_TYPO) return;
    for (const variant of deletions(key)) {
      const other = byVariant.get(variant);
      if (other !== undefined) uf.union(other, i);
      else byVariant.set(variant, i);
    }
  };
  keys.forEach((key, i) => {
    const same = byKey.get(key);
    if (same !== undefined) uf.union(same, i);
    else byKey.set(key, i);
    addVariants(key, i);
    const first = foldWords(brands[i].name)[0];
    if (first && first !== key) addVariants(first, i);
  });

  // Prefixes: in sorted order, every key that extends `k` directly follows it.
  const sorted = [...byKey.keys()].sort();
  for (let i = 0; i < sorted.length; i += 1) {
    const k = sorted[i];
    if (k.length < MIN_PREFIX) continue;
    for (let j = i + 1; j < sorted.length && sorted[j].startsWith(k); j += 1) {
      uf.union(byKey.get(k)!, byKey.get(sorted[j])!);
    }
  }

  const members = new Map<number, T[]>();
  brands.forEach((brand, i) => {
    const root = uf.find(i);
    const list = members.get(root);
    if (list) list.push(brand);
    else members.set(root, [brand]);
  });

  const byName = (a: T, b: T) => a.name.localeCompare(b.name) || a.id - b.id;
  const groups: BrandGroup<T>[] = [];
  const singles: T[] = [];
  for (const list of members.values()) {
    if (list.length === 1) {
      singles.push(list[0]);
      continue;
    }
    list.sort(byName);
    // The shortest name is the common stem ("Nike" for "Nike", "Nike Football"); ties go to the oldest brand.
    const title = list.reduce((best, b) =>
      b.name.length < best.name.length || (b.name.length === best.name.length && b.id < best.id) ? b : best,
    ).name;
    groups.push({ title, brands: list });
  }
  groups.sort((a, b) => a.title.localeCompare(b.title));
  singles.sort(byName);
  return { groups, singles };
}
