export const FIGURES = [
  'store',
  'lookups',
  'startup',
  'offline',
  'rendering',
  'memory',
  'qr-payment',
] as const;
export type FigureName = (typeof FIGURES)[number];

export interface BenchOptions {
  help: boolean;
  /** Figure 1: documents stored one after the other (after a warm-up of 300). */
  stores: number;
  /** Figure 1: then this many with `electronicReceipt: true`. */
  electronic: number;
  /** Figure 6: total stores after which RSS is compared with RSS after 1,000. */
  memoryStores: number;
  /** Figures 2 and 3: documents in the seeded CHDÚ. */
  docs: number;
  /** Figure 2: look-ups per kind at each scale. */
  lookups: number;
  /** Figure 4: offline documents waiting when the SFS returns. */
  backlog: number;
  only: Set<FigureName>;
  smoke: boolean;
  /** Write bench/results/<date>-<host>.json. */
  results: boolean;
  keep: boolean;
  tmpDir?: string | undefined;
  /** Run the store figure's `kasa serve` with --cpu-prof into this folder. */
  cpuProf?: string | undefined;
  /** Overall bound of the run in seconds (0: none); figures not started by then are cut. */
  timeLimitS: number;
  /** Date.now() at which the time limit is reached (set by run.ts when the run starts). */
  deadlineMs?: number | undefined;
}

export const USAGE = `npm run bench -- [flags]

  --docs N            documents in the seeded CHDÚ for look-ups and start-up (default 100000;
                      the target's scale is 1000000)
  --stores N          documents stored one after the other for figure 1 (default 1000)
  --electronic N      then stored with electronicReceipt: true (default 300)
  --memory-stores N   total stores for figure 6, compared with RSS after 1,000 (default 10000;
                      the target's scale is 100000)
  --lookups N         look-ups per kind and scale (default 1000)
  --backlog N         offline documents waiting when the SFS returns, figure 4 (default 10000)
  --only a,b          figures: ${FIGURES.join(', ')} (floors always run)
  --full              the target's scale: --docs 1000000 --memory-stores 100000 --lookups 5000,
                      no time limit
  --time-limit S      bound of the whole run in seconds (default 900; 0 for none): figures not
                      started by then are left out and the memory figure stops where it is; the
                      table and the results say what was cut
  --smoke             a small run for CI: checks every path, numbers mean little
  --no-results        do not write bench/results/<date>-<host>.json
  --keep              keep the temporary data dirs
  --tmp DIR           where the temporary data dirs go (default the OS temp dir)
  --cpu-prof DIR      profile kasa serve of the store and offline figures (node --cpu-prof) into DIR
                      (the store figure rerun against kasa sfs-sim into DIR/split)`;

export function parseBenchArgs(argv: string[]): BenchOptions {
  const o: BenchOptions = {
    help: false,
    stores: 1000,
    electronic: 300,
    memoryStores: 10_000,
    docs: 100_000,
    lookups: 1000,
    backlog: 10_000,
    only: new Set(FIGURES),
    smoke: false,
    results: true,
    keep: false,
    timeLimitS: 900,
  };
  const int = (flag: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs a whole number ≥ ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i];
    switch (flag) {
      case '--help':
      case '-h':
        o.help = true;
        break;
      case '--docs':
        o.docs = int(flag, value(), 1000);
        break;
      case '--stores':
        o.stores = int(flag, value(), 10);
        break;
      case '--electronic':
        o.electronic = int(flag, value(), 0);
        break;
      case '--memory-stores':
        o.memoryStores = int(flag, value(), 1000);
        break;
      case '--lookups':
        o.lookups = int(flag, value(), 10);
        break;
      case '--backlog':
        o.backlog = int(flag, value(), 10);
        break;
      case '--only': {
        const names = (value() ?? '').split(',').filter(Boolean);
        const unknown = names.filter((n) => !(FIGURES as readonly string[]).includes(n));
        if (unknown.length) throw new Error(`--only: unknown figure ${unknown.join(', ')}`);
        o.only = new Set(names as FigureName[]);
        break;
      }
      case '--full':
        o.docs = 1_000_000;
        o.memoryStores = 100_000;
        // A p99 over 5,000 look-ups per kind is the 50th slowest, not the 10th: steadier, and the
        // 1,000,000 ÷ 1,000 ratio compares two such figures.
        o.lookups = 5000;
        o.timeLimitS = 0;
        break;
      case '--time-limit':
        o.timeLimitS = int(flag, value(), 0);
        break;
      case '--smoke':
        o.smoke = true;
        o.docs = 2000;
        o.stores = 100;
        o.electronic = 20;
        o.memoryStores = 1100;
        o.lookups = 50;
        o.backlog = 300;
        break;
      case '--no-results':
        o.results = false;
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--tmp':
        o.tmpDir = value();
        break;
      case '--cpu-prof':
        o.cpuProf = value();
        break;
      default:
        throw new Error(`unknown flag ${flag}\n\n${USAGE}`);
    }
  }
  if (o.memoryStores < 1000 + 1) o.memoryStores = 1001;
  return o;
}
