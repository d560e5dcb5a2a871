import type { Brand, Placement, Project, Tag } from '@logo-review/contract';

/** Spec: Brand or '/', Placements as a comma list or 'All', Project or '/'. */
export function describeTag(
  tag: Tag,
  brands: Map<number, Brand>,
  placements: Map<number, Placement>,
  projects: Map<number, Project>,
): { brand: string; placements: string; project: string } {
  const brand = brands.get(tag.brand);
  const project = tag.project === null ? undefined : projects.get(tag.project);
  const names = tag.placements.map((id) => placements.get(id)?.localized_name ?? `#${id}`);
  return {
    brand: brand ? brand.localized_name || brand.name : '/',
    placements: names.length ? names.join(', ') : 'All',
    project: project ? project.name : '/',
  };
}
