/**
 * The real-data run's precondition, stated first: the full history is where
 * SHARED_DATA_DIR (or ../shared/data) says. Without it this run fails here,
 * and every other file of test/real fails to load; nothing is skipped.
 */
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { SHARED_DATA } from '../helpers/shared-data';

describe('the real-data run', () => {
  it('finds the full history in shared/data', () => {
    if (!existsSync(SHARED_DATA)) throw new Error(`no shared data at ${SHARED_DATA}: set SHARED_DATA_DIR to the shared/data folder`);
    const folders = readdirSync(SHARED_DATA);
    for (const folder of ['daily_marketlab', 'daily_yf_dieperdev', 'options', 'short_interest_float', 'macro']) expect(folders).toContain(folder);
  });
});
