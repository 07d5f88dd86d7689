import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests must not depend on the host's zone: fiscal time is always Europe/Bratislava.
    // The CHDÚ high-water marks (ADR 0118) default to the user's state dir: tests never touch the
    // real home — in-process registers and every `kasa` child they start use a temporary one.
    env: { TZ: 'America/New_York', XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'kasa-test-state-')) },
  },
});
