import type { StaffRole } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { EventBus, StaffNews } from '../../plugins/bus.js';
import { listLiveSessionRoles } from './staff-sessions.repository.js';

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
/**
 * How often the watched sessions are read again, in one query for all of them (never per event or
 * per stream): the safety net of the news, for a change made where no bus reaches (the command
 * line of an instance without Redis) or news lost while Redis reconnected. Half a second keeps such
 * a change inside the 1 s bound of docs/security.md.
 */
const RECHECK_MS = 500;
/** Sessions per query of a recheck (well under either store's limit of bound values). */
const RECHECK_CHUNK = 500;

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
 * through Redis, any other) ends the streams it names at once; every write asks `isAllowed` first;
 * while any is open, one query every RECHECK_MS reads their sessions again.
 */
export function createSessionWatch(
  bus: EventBus,
  db: Kysely<Database>,
  now: () => number,
  onError: (error: unknown) => void = () => {},
): SessionWatch {
  const byStaff = new Map<string, Set<Watched>>();
  const recent: { seq: number; at: number; news: StaffNews }[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let rechecking = false;

  const all = (): Watched[] => [...byStaff.values()].flatMap((set) => [...set]);
  const forget = (watched: Watched) => {
    const set = byStaff.get(watched.grant.staffId);
    set?.delete(watched);
    if (set?.size === 0) byStaff.delete(watched.grant.staffId);
    if (byStaff.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  /** Ends the watched accesses whose session is gone or expired, or whose role at their venue is not theirs any more. */
  const recheck = async () => {
    if (rechecking) return;
    rechecking = true;
    try {
      // Only streams watched before the read: a later one may have a session the read could not see.
      const watched = all();
      const ids = [...new Set(watched.map((w) => w.grant.sessionId))];
      const live = new Set<string>();
      for (let i = 0; i < ids.length; i += RECHECK_CHUNK)
        for (const row of await listLiveSessionRoles(db, ids.slice(i, i + RECHECK_CHUNK), now()))
          live.add(`${row.sessionId} ${row.venueId} ${row.role}`);
      for (const w of watched) if (!live.has(`${w.grant.sessionId} ${w.grant.venueId} ${w.grant.role}`)) w.end();
    } catch (error) {
      onError(error);
    } finally {
      rechecking = false;
    }
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
      if (!timer) {
        timer = setInterval(() => void recheck(), RECHECK_MS);
        timer.unref();
      }
      watched.arm();
      return watched;
    },
    size: () => all().length,
    close() {
      unsubscribe();
      for (const w of all()) w.release();
      clearInterval(timer);
    },
  };
}
