import { sqliteStore } from '../stores.js';
import { fuzzEveryRoute } from './fuzz-suite.js';

fuzzEveryRoute(sqliteStore);
