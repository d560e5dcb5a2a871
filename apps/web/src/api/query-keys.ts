/** Query keys shared by the pages and the editor, so one fetch serves both. */
export const QK = {
  profile: ['profile'] as const,
  brands: ['brands'] as const,
  placements: ['placements'] as const,
  videos: ['videos'] as const,
  video: (id: number) => ['video', id] as const,
  projects: ['projects'] as const,
  tags: ['tags'] as const,
  verification: ['verification'] as const,
};
