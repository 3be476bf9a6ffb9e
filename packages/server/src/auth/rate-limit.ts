/**
 * Failed attempts per key in a fixed window: after `limit` failures the key waits until the window
 * ends. Successful attempts are not counted (an office behind one address signs in freely).
 */
export class RateLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before another attempt, or 0. */
  wait(key: string, now = Date.now()): number {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  /** Counts a failed attempt. */
  fail(key: string, now = Date.now()): void {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) {
      this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.failures.size > 10_000) this.sweep(now);
    } else entry.count++;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}

/** Failures of one account from one address before that pair waits (DESIGN §5: 10 per 15 min). */
export const PAIR_LIMIT = 10;
/** Failures from one address over every account before the address waits: guessing many accounts. */
export const ADDRESS_LIMIT = 50;
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * Password guesses counted per (address, username) and per address with a higher ceiling. Nobody can
 * lock an account from elsewhere: the owner's address has its own count, and a correct password from an
 * address that has not failed is never refused because of other addresses' failures.
 */
export class PasswordGuessLimiter {
  private readonly pairs: RateLimiter;
  private readonly addresses: RateLimiter;

  constructor(pairLimit = PAIR_LIMIT, addressLimit = ADDRESS_LIMIT, windowMs = WINDOW_MS) {
    this.pairs = new RateLimiter(pairLimit, windowMs);
    this.addresses = new RateLimiter(addressLimit, windowMs);
  }

  private static pair(address: string, username: string): string {
    return `${address}\u0001${username.toLowerCase()}`;
  }

  /** Seconds the address must wait before guessing this account's password again, or 0. */
  wait(address: string, username: string, now = Date.now()): number {
    return Math.max(
      this.pairs.wait(PasswordGuessLimiter.pair(address, username), now),
      this.addresses.wait(address, now),
    );
  }

  fail(address: string, username: string, now = Date.now()): void {
    this.pairs.fail(PasswordGuessLimiter.pair(address, username), now);
    this.addresses.fail(address, now);
  }
}
