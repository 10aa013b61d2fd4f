import type { StaffRole } from '@vez/contract';
import type { EventBus, StaffNews } from '../../plugins/bus.js';

/** What a console stream was let in with: whose session, at which venue, in which role, until when. */
export interface StreamGrant {
  /** The session's id: the SHA-256 of its token, as the store keeps it. */
  sessionId: string;
  staffId: string;
  venueId: string;
  role: StaffRole;
  expiresAt: number;
}

/**
 * A console stream's view of its session, kept by this instance (docs/security.md, "Staff sessions
 * end everywhere"): no store read per event, the staff news voids it.
 */
export interface SessionAccess {
  /** True until news ended the session or changed its role at the venue, and while it has not expired. */
  isAllowed(): boolean;
  /** Calls `listener` once, when news or the session's expiry ends the access (at once if it already has). */
  onEnd(listener: () => void): void;
  /** The stream closed: forget it. */
  release(): void;
}

export interface SessionWatch {
  /** A mark taken before the session is read: news about it heard after the mark ends the access at once. */
  mark(): number;
  watch(since: number, grant: StreamGrant): SessionAccess;
  /** How many accesses are watched now (tests). */
  size(): number;
  close(): void;
}

/** Which of a staff member's streams a piece of news ends. */
function ends(news: StaffNews, grant: StreamGrant): boolean {
  if (news.staffId !== grant.staffId) return false;
  switch (news.kind) {
    case 'sessions-ended':
      return news.keep !== grant.sessionId;
    case 'session-ended':
      return news.sessionId === grant.sessionId;
    case 'role-changed':
      return news.venueId === grant.venueId;
  }
}

/** News is remembered this long (and at most this many) for sessions being read when it arrived. */
const RECENT_NEWS_MS = 60_000;
const RECENT_NEWS_MAX = 1_000;
/** setTimeout's longest delay; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

class Watched implements SessionAccess {
  private ended = false;
  private listener: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly grant: StreamGrant,
    private readonly now: () => number,
    private readonly forget: (watched: Watched) => void,
  ) {}

  /** Ends the access when the session expires, on the app's clock. */
  arm(): void {
    const left = this.grant.expiresAt - this.now();
    if (left <= 0) return this.end();
    this.timer = left > MAX_TIMER_MS ? setTimeout(() => this.arm(), MAX_TIMER_MS) : setTimeout(() => this.end(), left);
    this.timer.unref();
  }

  isAllowed(): boolean {
    return !this.ended && this.now() < this.grant.expiresAt;
  }

  onEnd(listener: () => void): void {
    if (this.ended) listener();
    else this.listener = listener;
  }

  end(): void {
    if (this.ended) return;
    this.release();
    this.listener?.();
  }

  release(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.forget(this);
  }
}

/**
 * The console streams this instance holds, by staff member. News on the bus (from this instance or,
 * through Redis, any other) ends the streams it names at once; every write asks `isAllowed` first.
 */
export function createSessionWatch(bus: EventBus, now: () => number): SessionWatch {
  const byStaff = new Map<string, Set<Watched>>();
  const recent: { seq: number; at: number; news: StaffNews }[] = [];
  let seq = 0;

  const forget = (watched: Watched) => {
    const set = byStaff.get(watched.grant.staffId);
    set?.delete(watched);
    if (set?.size === 0) byStaff.delete(watched.grant.staffId);
  };

  const unsubscribe = bus.subscribeStaffNews((news) => {
    const at = performance.now();
    recent.push({ seq: ++seq, at, news });
    while (recent.length > RECENT_NEWS_MAX || (recent.length > 0 && at - recent[0]!.at > RECENT_NEWS_MS)) recent.shift();
    const watched = byStaff.get(news.staffId);
    if (watched) for (const w of [...watched]) if (ends(news, w.grant)) w.end();
  });

  return {
    mark: () => seq,
    watch(since, grant) {
      const watched = new Watched(grant, now, forget);
      // News that arrived while the session was being read: the store may have answered before it.
      if (recent.some((r) => r.seq > since && ends(r.news, grant))) {
        watched.release();
        return watched;
      }
      let set = byStaff.get(grant.staffId);
      if (!set) byStaff.set(grant.staffId, (set = new Set()));
      set.add(watched);
      watched.arm();
      return watched;
    },
    size: () => [...byStaff.values()].reduce((n, set) => n + set.size, 0),
    close() {
      unsubscribe();
      for (const set of [...byStaff.values()]) for (const w of [...set]) w.release();
    },
  };
}
