import { describe } from 'vitest';
import { postgresStore, postgresUrl } from '../stores.js';
import { fuzzEveryRoute } from './fuzz-suite.js';

// Without DATABASE_URL=postgres://… it is skipped, and stores.ts prints that PostgreSQL did not run.
describe.runIf(postgresUrl)('PostgreSQL', () => fuzzEveryRoute(postgresStore));
