import type { MessageSigner, SendOptions, SfsOutcome, TaxAuthority } from '../core/ports/tax-authority.js';
import type { SfsHealth } from '../core/services/sfs-health.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../core/sfs/message.js';
import type { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';
import type { SfsConnection } from './open-tax-authority.js';
import { Swappable } from './swappable.js';

/**
 * The SFS client as the use cases see it: a {@link TaxAuthority} whose connection (URL, trust,
 * the embedded simulator) the settings can replace between requests (ADR 1003). A send in flight
 * ends on the connection it started on, which is closed after it; a send that starts after the
 * swap goes to the new connection at once, without waiting for the old one's sends (a POS store
 * waited up to two online limits behind the sender's resends). No document is sent on both at
 * once: its send claim (capability 10) is held for the whole attempt.
 */
export class SwappableTaxAuthority implements TaxAuthority {
  readonly #holder: Swappable<SfsConnection>;
  readonly #health: SfsHealth;

  constructor(connection: SfsConnection) {
    this.#holder = new Swappable(connection, { exclusive: false });
    this.#health = connection.health;
  }

  get target(): string {
    return this.#holder.current.target;
  }

  /**
   * What the last sends said, for the SFS status entry and the offline sender's wake-ups: one
   * object for the whole process, which takes over each new connection's target.
   */
  get health(): SfsHealth {
    return this.#health;
  }

  /** The embedded simulator, when the current connection is to it. */
  get simulator(): SfsSimulator | undefined {
    return this.#holder.current.simulator;
  }

  registerReceipt(
    request: SfsReceiptRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome> {
    return this.#holder.use((c) => c.taxAuthority.registerReceipt(request, signer, options));
  }

  registerLocation(
    request: SfsLocationRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome> {
    return this.#holder.use((c) => c.taxAuthority.registerLocation(request, signer, options));
  }

  swap(next: SfsConnection): void {
    this.#holder.swap(next);
    this.#health.adopt(next.health);
  }

  close(): Promise<void> {
    return this.#holder.close();
  }
}
