import { randomUUID } from 'node:crypto';
import type { SlotRef, Slots } from './index.js';
import type { Clock } from '../core/clock.js';

/** One cap to respect: at most `limit` concurrent holders under `key` (e.g. `stream-ip:1.2.3.4`). */
export interface Cap {
  key: string;
  limit: number;
}

/** Slots held by one connection; release them when it closes. */
export interface Lease {
  release(): Promise<void>;
}

export const LEASE_MS = 60_000;
const RENEW_EVERY_MS = LEASE_MS / 3;

/**
 * Caps concurrent long-lived connections (SSE watchers) across every instance: slots live in the
 * cache (Redis when several instances share it) with a lease this limiter renews while the
 * connection is open, so the slots of a crashed instance expire by themselves within LEASE_MS.
 */
export class ConcurrencyLimiter {
  private readonly held = new Set<SlotRef>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly slots: Slots,
    private readonly clock: Clock,
  ) {
    this.timer = setInterval(() => void this.renewAll(), RENEW_EVERY_MS).unref();
  }

  /** Takes a slot under every cap, or none: `{full}` names the first full cap (and nothing stays held). */
  async acquire(caps: readonly Cap[]): Promise<{ lease: Lease } | { full: Cap }> {
    // randomUUID's string is a rope of ~14 pieces (~0.5 KB); the holder lives as long as the connection, so a flat copy.
    const holder = Buffer.from(randomUUID(), 'latin1').toString('latin1');
    const taken: SlotRef[] = [];
    for (const cap of caps) {
      if (!(await this.slots.acquireSlot(cap.key, holder, cap.limit, LEASE_MS, this.clock.now()))) {
        await Promise.all(taken.map((slot) => this.slots.releaseSlot(slot.key, slot.holder)));
        return { full: cap };
      }
      taken.push({ key: cap.key, holder });
    }
    for (const slot of taken) this.held.add(slot);
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      for (const slot of taken) this.held.delete(slot);
      await Promise.all(taken.map((slot) => this.slots.releaseSlot(slot.key, slot.holder)));
    };
    return { lease: { release } };
  }

  /** Connections holding a slot under `key`, on every instance. */
  count(key: string): Promise<number> {
    return this.slots.countSlots(key, this.clock.now());
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Renews every lease this instance holds in one batch. */
  async renewAll(): Promise<void> {
    // A failed round (Redis briefly away) is retried on the next; a lease outlives two missed rounds.
    await this.slots.renewSlots([...this.held], LEASE_MS, this.clock.now()).catch(() => undefined);
  }
}
