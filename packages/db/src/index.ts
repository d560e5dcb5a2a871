export { openDatabase, type Database, type DatabaseOptions, type Queryable } from './database.ts';
export { migrate } from './migrate.ts';
