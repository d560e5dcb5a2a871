/**
 * Colours of brands in charts and strips (by rank or row, cycling): one palette, so that the
 * dashboard's charts and the editor's detection strip read alike.
 */
export const BRAND_COLORS = [
  '#1e88e5',
  '#e53935',
  '#43a047',
  '#fb8c00',
  '#8e24aa',
  '#00acc1',
  '#6d4c41',
  '#d81b60',
  '#3949ab',
  '#7cb342',
];
