export * from './entities.ts';
export * from './requests.ts';
export * from './jobs.ts';
export * from './api-paths.ts';
export * from './analytics.ts';
export * from './detection-spans.ts';
