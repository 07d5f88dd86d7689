import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../test/support/shared-fixtures.js';
import { addServeOptions, readServeConfig } from './serve-config.js';

function parse(argv: string[], env: Record<string, string> = { HOME: '/home/anna' }) {
  const cmd = new Command('serve').exitOverride();
  addServeOptions(cmd);
  cmd.parse(argv, { from: 'user' });
  return readServeConfig(cmd, env, '/srv');
}

describe('serve configuration', () => {
  it('has the documented defaults', () => {
    const c = parse([], { HOME: '/home/anna' });
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 13083,
      dataDir: '/home/anna/.local/share/kasa',
      dataDirSource: 'default',
      sfsUrl: undefined,
      sfsTimeoutMs: 5000,
      printer: { kind: 'virtual' },
      chdu: { kind: 'image', path: '/home/anna/.local/share/kasa/chdu.img' },
      demo: true,
      token: undefined,
      logLevel: 'info',
      swId: undefined,
    });
    expect(c.fixed.size).toBe(0);
  });

  it('keeps the CHDÚ high-water marks outside the data dir: XDG state dir, else ~/.local/state, or --mark-dir (ADR 0118)', () => {
    expect(parse([], { XDG_STATE_HOME: '/var/state', HOME: '/home/shop' }).markDir).toBe(
      '/var/state/kasa/marks',
    );
    expect(parse([], { HOME: '/home/shop' }).markDir).toBe('/home/shop/.local/state/kasa/marks');
    // A relative XDG_STATE_HOME is invalid by the XDG spec and ignored.
    expect(parse([], { XDG_STATE_HOME: 'state', HOME: '/home/shop' }).markDir).toBe(
      '/home/shop/.local/state/kasa/marks',
    );
    const flagged = parse(['--mark-dir', 'marks'], { HOME: '/home/shop', KASA_MARK_DIR: '/ignored' });
    expect(flagged.markDir).toBe('/srv/marks');
    expect(flagged.fixed.has('markDir')).toBe(true);
    expect(parse([], { HOME: '/home/shop', KASA_MARK_DIR: '/etc/kasa-marks' }).markDir).toBe(
      '/etc/kasa-marks',
    );
  });

  it('reads the token from KASA_TOKEN, never echoes an invalid one, and the help recommends it', () => {
    expect(parse([], { HOME: '/home/anna', KASA_TOKEN: 'from-the-environment' }).token).toBe(
      'from-the-environment',
    );
    let message = '';
    try {
      parse([], { HOME: '/home/anna', KASA_TOKEN: 'a secret with spaces' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('KASA_TOKEN');
    expect(message).not.toContain('secret with spaces');
    const cmd = new Command('serve');
    addServeOptions(cmd);
    expect(cmd.helpInformation().replace(/\s+/g, ' ')).toMatch(
      /prefer KASA_TOKEN: a flag shows in the process list/,
    );
  });

  it('--no-demo turns demo mode off and fixes the key', () => {
    const c = parse(['--no-demo'], { HOME: '/home/anna' });
    expect(c.demo).toBe(false);
    expect([...c.fixed]).toEqual(['demo']);
  });

  it('--sfs-sim / KASA_SFS_SIM ask for the embedded SFS simulator with --no-demo (shop review s12 H1)', () => {
    expect(parse(['--no-demo'], { HOME: '/home/anna' }).sfsSim).toBe(false);
    expect(parse(['--no-demo', '--sfs-sim'], { HOME: '/home/anna' }).sfsSim).toBe(true);
    expect(parse([], { HOME: '/home/anna', KASA_NO_DEMO: 'true', KASA_SFS_SIM: 'yes' }).sfsSim).toBe(true);
    expect(() => parse([], { HOME: '/home/anna', KASA_SFS_SIM: 'maybe' })).toThrow(/KASA_SFS_SIM/);
  });

  it('reads KASA_* variables and lets flags win; both fix the key', () => {
    const c = parse(['--port', '9000'], {
      HOME: '/home/anna',
      KASA_PORT: '8000',
      KASA_SFS_TIMEOUT_MS: '2500',
      KASA_NO_DEMO: 'true',
    });
    expect(c.port).toBe(9000);
    expect(c.sfsTimeoutMs).toBe(2500);
    expect(c.demo).toBe(false);
    expect([...c.fixed].sort()).toEqual(['demo', 'port', 'sfsTimeoutMs']);
  });

  it('knows what fixed each key: the flag or the variable (the settings say why, capability 12)', () => {
    const c = parse(['--printer', 'tcp://10.0.0.5:9100', '--no-demo'], {
      HOME: '/home/anna',
      KASA_SFS_TIMEOUT_MS: '2500',
    });
    expect(Object.fromEntries(c.fixedBy ?? [])).toEqual({
      printer: '--printer',
      sfsTimeoutMs: 'KASA_SFS_TIMEOUT_MS',
      demo: '--no-demo',
    });
  });

  it('parses targets and repeatable trust files', () => {
    const c = parse([
      '--chdu',
      'chdu-lite+serial:///dev/ttyACM0?baudRate=9600',
      '--printer',
      'tcp://10.0.0.5:9100',
      '--sfs-trust',
      'a.pem',
      '--sfs-trust',
      '/etc/b.pem',
      '--data-dir',
      'reg1',
    ]);
    expect(c.chdu).toEqual({ kind: 'chdu-lite-serial', path: '/dev/ttyACM0', baudRate: 9600 });
    expect(c.printer).toEqual({ kind: 'tcp', host: '10.0.0.5', port: 9100 });
    expect(c.sfsTrust).toEqual(['/srv/a.pem', '/etc/b.pem']);
    expect(c.dataDir).toBe('/srv/reg1');
  });

  it('keeps the capacity of a new image given in the --chdu target, resolving its path', () => {
    const c = parse(['--chdu', 'image:img/chdu.img?capacity=5000']);
    expect(c.chdu).toEqual({ kind: 'image', path: '/srv/img/chdu.img', capacityBlocks: 5000 });
  });

  it('--sw-id / KASA_SW_ID: 40 hex digits, kept exactly as given (ADR 0421), fixed', () => {
    // The SwId of the official SFS samples, in lower case as they carry it.
    const hex = 'b61f1694810c3b35c6cf475785a8739110c3b35c';
    const c = parse(['--sw-id', hex]);
    expect(c.swId).toBe(hex);
    expect([...c.fixed]).toEqual(['swId']);
    const mixed = 'ABCDEF0123456789abcdef0123456789ABCDEF01';
    expect(parse([], { HOME: '/home/anna', KASA_SW_ID: mixed }).swId).toBe(mixed);
  });

  describe('the data dir (ADR 0802)', () => {
    it('defaults to $XDG_DATA_HOME/kasa, never to the folder kasa is started in', () => {
      const c = parse([], { HOME: '/home/anna', XDG_DATA_HOME: '/data/anna' });
      expect(c.dataDir).toBe('/data/anna/kasa');
      expect(c.chdu).toEqual({ kind: 'image', path: '/data/anna/kasa/chdu.img' });
      expect(c.fixed.has('dataDir')).toBe(false);
    });

    it('ignores a relative XDG_DATA_HOME (XDG rule) and falls back to ~/.local/share/kasa', () => {
      expect(parse([], { HOME: '/home/anna', XDG_DATA_HOME: 'rel' }).dataDir).toBe(
        '/home/anna/.local/share/kasa',
      );
    });

    it('KASA_DATA_DIR and --data-dir win over the default, the flag over the variable', () => {
      const env = { HOME: '/home/anna', KASA_DATA_DIR: '/var/lib/kasa' };
      expect(parse([], env)).toMatchObject({ dataDir: '/var/lib/kasa', dataDirSource: 'env' });
      expect(parse(['--data-dir', 'reg1'], env)).toMatchObject({
        dataDir: '/srv/reg1',
        dataDirSource: 'flag',
      });
      expect(parse([], env).fixed.has('dataDir')).toBe(true);
    });

    it('without HOME or XDG_DATA_HOME asks for --data-dir instead of guessing', () => {
      expect(() => parse([], {})).toThrow(/--data-dir or KASA_DATA_DIR/);
      expect(parse(['--data-dir', '/x'], {}).dataDir).toBe('/x');
    });
  });

  const sampleTitle = '--sw-id: the SwId of an official SFS sample is taken exactly as the sample writes it';
  it.skipIf(!hasOfficialFixtures)(
    hasOfficialFixtures ? sampleTitle : `${sampleTitle} (${SHARED_MISSING})`,
    () => {
      const xml = readFileSync(
        official('soap-samples', 'priklad_pokladnicny_doklad_platitel_DPH_20190131.xml'),
        'utf8',
      );
      const sample = /SwId="([^"]+)"/.exec(xml)![1]!;
      expect(parse(['--sw-id', sample]).swId).toBe(sample);
    },
  );
});
