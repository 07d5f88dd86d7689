import type { ServeConfig } from '../config/serve-config.js';
import { describeChduTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { invalidInput } from '../core/fiscal-error.js';
import type { Clock } from '../core/ports/clock.js';
import type { MerchantIdentityRow } from '../core/ports/merchant-index.js';
import type { SettingsApplier } from '../core/ports/settings-applier.js';
import type { Settings } from '../core/settings/settings-schema.js';
import { openTaxAuthority, type SfsConnection } from './open-tax-authority.js';
import type { SwappableTaxAuthority } from './swappable-tax-authority.js';

export interface SfsSettingsDeps {
  config: ServeConfig;
  clock: Clock;
  merchantCertificate: () => string | undefined;
  identityHistory: () => MerchantIdentityRow[];
  /** Warnings of the embedded SFS simulator (its memory unreadable after a power cut, ...). */
  warn?: (line: string) => void;
}

/** True when the SFS connection must change: another URL, or other trust for a real SFS. */
export function sfsConnectionChanged(a: Settings, b: Settings): boolean {
  if (a.sfsUrl !== b.sfsUrl) return true;
  return b.sfsUrl !== null && JSON.stringify(a.sfsTrust) !== JSON.stringify(b.sfsTrust);
}

/**
 * Opens the SFS connection the settings name (the embedded simulator when `sfsUrl` is null). A
 * trust file that cannot be read is 701 naming `settings.sfsTrust`; no connection to the SFS is
 * tried here: an SFS that does not answer is the offline case, as at start (ADR 1003).
 */
export async function openSettingsSfs(settings: Settings, deps: SfsSettingsDeps): Promise<SfsConnection> {
  const config: ServeConfig = {
    ...deps.config,
    sfsUrl: settings.sfsUrl ?? undefined,
    sfsTrust: settings.sfsTrust,
    sfsTimeoutMs: settings.sfsTimeoutMs,
  };
  try {
    return await openTaxAuthority(
      config,
      deps.clock,
      deps.merchantCertificate,
      deps.identityHistory,
      deps.warn,
    );
  } catch (e) {
    // A setting was given here: a trust file's sentence follows without the flag's name.
    if (e instanceof UsageError)
      throw invalidInput('settings.sfsTrust', e.message.replace(/^--sfs-trust /, ''));
    throw e;
  }
}

/**
 * The flag or variable that made this a register that is not a demo and needs an SFS URL —
 * `--no-demo` (`KASA_NO_DEMO`), or `--chdu` (`KASA_CHDU`) naming a CHDU Lite device, a real fiscal
 * storage — or undefined when the embedded SFS simulator may serve it: a demo on an image CHDÚ, a
 * composed config (no `fixedBy`: tests, benches), or `--sfs-sim` asking for it (ADR 0006).
 */
export function simulatorRefusedBy(config: ServeConfig): string | undefined {
  if (config.sfsSim) return undefined;
  const noDemoBy = config.demo ? undefined : config.fixedBy?.get('demo');
  if (noDemoBy !== undefined) return noDemoBy;
  if (config.chdu.kind === 'image') return undefined;
  const chduBy = config.fixedBy?.get('chdu');
  if (chduBy === undefined) return undefined;
  const target = describeChduTarget(config.chdu);
  return chduBy.startsWith('--') ? `${chduBy} ${target}` : `${chduBy}=${target}`;
}

/** Applies `sfsUrl` / `sfsTrust` by swapping the SFS connection between requests (ADR 1003). */
export function sfsSettingsApplier(holder: SwappableTaxAuthority, deps: SfsSettingsDeps): SettingsApplier {
  return {
    async prepare(previous, next) {
      if (!sfsConnectionChanged(previous, next)) return undefined;
      // The next start would refuse it (exit 2): no swap to the simulator while such a register runs.
      const refusedBy = next.sfsUrl === null ? simulatorRefusedBy(deps.config) : undefined;
      if (refusedBy !== undefined) {
        throw invalidInput(
          'settings.sfsUrl',
          `a register that is not a demo (${refusedBy}) needs an SFS URL; start with --sfs-sim (KASA_SFS_SIM=true) to use the embedded SFS simulator on purpose`,
        );
      }
      const connection = await openSettingsSfs(next, deps);
      return {
        commit: () => holder.swap(connection),
        abort: () => connection.close(),
      };
    },
  };
}
