import type { Migration } from 'kysely';
import * as m001 from './001-initial.js';

/** Every migration, in order. Later issues append here; a landed migration is never edited. */
export const migrations: Record<string, Migration> = {
  '001-initial': m001,
};
