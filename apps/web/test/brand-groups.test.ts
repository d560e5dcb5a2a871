import { describe, expect, it } from 'vitest';
import { foldName, groupBrands } from '../src/brands/brand-groups';

const brands = (...names: string[]) => names.map((name, i) => ({ id: i + 1, name }));
const titles = (r: ReturnType<typeof groupBrands>) =>
  r.groups.map((g) => [g.title, g.brands.map((b) => b.name)] as const);

describe('groupBrands', () => {
  it('folds case, accents and punctuation', () => {
    expect(foldName('Coca-Cola Zéro')).toBe('cocacolazero');
  });

  it('groups the same name written differently', () => {
    const r = groupBrands(brands('Coca-Cola', 'coca cola', 'Pepsi'));
    expect(titles(r)).toEqual([['Coca-Cola', ['coca cola', 'Coca-Cola']]]);
    expect(r.singles.map((b) => b.name)).toEqual(['Pepsi']);
  });

  it('groups a name with its extensions (prefix of at least 4 characters)', () => {
    const r = groupBrands(brands('Nike Football', 'Nike', 'Nike Running', 'BMW', 'BMW M'));
    expect(titles(r)).toEqual([['Nike', ['Nike', 'Nike Football', 'Nike Running']]]);
    // 'bmw' is too short to count as a prefix: too many names start with three letters.
    expect(r.singles.map((b) => b.name)).toEqual(['BMW', 'BMW M']);
  });

  it('groups one-typo variants, also through the first word', () => {
    const r = groupBrands(brands('Adidas', 'Addidas Originals', 'Adidsa', 'Puma'));
    expect(titles(r)).toEqual([['Adidas', ['Addidas Originals', 'Adidas', 'Adidsa']]]);
  });

  it('keeps short different names apart', () => {
    const r = groupBrands(brands('Puma', 'Pumo', 'Aldi', 'Audi'));
    expect(r.groups).toEqual([]);
    expect(r.singles.map((b) => b.name)).toEqual(['Aldi', 'Audi', 'Puma', 'Pumo']);
  });

  it('sorts groups by title and handles an empty list', () => {
    const r = groupBrands(brands('Zara', 'Zara Home', 'Apple', 'Apple Music'));
    expect(r.groups.map((g) => g.title)).toEqual(['Apple', 'Zara']);
    expect(groupBrands([])).toEqual({ groups: [], singles: [] });
  });

  it('groups 5,000 brands quickly', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `Brand ${i % 2000} Line ${i}` }));
    const start = performance.now();
    const r = groupBrands(many);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(r.groups.length + r.singles.length).toBeGreaterThan(0);
  });
});
