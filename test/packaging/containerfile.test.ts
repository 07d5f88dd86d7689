import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * The Containerfile cannot be built here (no container engine, no network); these checks keep the
 * promises docs/install.md makes about it (ADR 0803).
 */
const text = readFileSync(join(repoRoot, 'Containerfile'), 'utf8');
const runStage = text.slice(text.lastIndexOf('\nFROM '));

describe('Containerfile', () => {
  it('keeps the data dir in a volume, at the path KASA_DATA_DIR names', () => {
    expect(runStage).toMatch(/KASA_DATA_DIR=\/var\/lib\/kasa/);
    expect(runStage).toMatch(/^VOLUME \["\/var\/lib\/kasa", "\/var\/lib\/kasa-marks"\]$/m);
  });

  it('keeps the rollback marks in their own volume outside the data dir (ADR 0118)', () => {
    expect(runStage).toMatch(/KASA_MARK_DIR=\/var\/lib\/kasa-marks/);
    expect(runStage).toContain('chown node:node /var/lib/kasa /var/lib/kasa-marks');
  });

  it('runs the compiled kasa as an unprivileged user in dialout, on Node 20', () => {
    expect(runStage).toMatch(/^FROM docker\.io\/library\/node:20-/m);
    expect(runStage).toMatch(/^USER node$/m);
    expect(runStage).toContain('usermod -a -G dialout,lp node');
    expect(runStage).toMatch(/^CMD \["kasa", "serve", "--host", "0\.0\.0\.0"\]$/m);
    expect(text).toContain('npm prune --omit=dev');
  });

  it('does not send the local data, build output or dependencies into the build context', () => {
    const ignored = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(entry);
  });
});
