// A setup file (vitest.config.ts): runs in every test file, after its own afterAll hooks.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
