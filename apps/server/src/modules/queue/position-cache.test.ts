import type { VenueChannelEvent } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../../plugins/bus.js';
import { createPositionCache } from './position-cache.js';

const VENUE = '6553f1a2b3c4d5e6f7a8b901';
const OTHER = '6553f1a2b3c4d5e6f7a8b902';
const event = (venueId: string): VenueChannelEvent => ({ type: 'update', venueId, at: new Date(0).toISOString() });

function setup() {
  let clock = 0;
  const bus = createLocalBus();
  const cache = createPositionCache(bus, () => clock);
  return { bus, cache, advance: (ms: number) => (clock += ms) };
}

describe('position cache', () => {
  it('answers a kept position until something happens at its venue', () => {
    const { cache } = setup();
    cache.keep('ptA', VENUE, '{"a":1}', cache.mark());
    cache.keep('ptB', OTHER, '{"b":1}', cache.mark());
    expect(cache.recall('ptA')).toBe('{"a":1}');
    cache.bus.publish(event(VENUE));
    expect(cache.recall('ptA')).toBeUndefined();
    expect(cache.recall('ptB')).toBe('{"b":1}'); // another venue's answers stay
  });

  it('an event heard from another instance voids the venue too', () => {
    const { bus, cache } = setup();
    cache.keep('ptA', VENUE, '{"a":1}', cache.mark());
    bus.publish(event(VENUE)); // straight on the channel, as a Redis message arrives
    expect(cache.recall('ptA')).toBeUndefined();
  });

  it('never keeps an answer read before a change that happened while it was read', () => {
    const { cache } = setup();
    const since = cache.mark(); // the read starts
    cache.forgetVenue(VENUE); // a join commits meanwhile
    cache.keep('ptA', VENUE, '{"old":true}', since);
    expect(cache.recall('ptA')).toBeUndefined();
    cache.keep('ptA', VENUE, '{"new":true}', cache.mark());
    expect(cache.recall('ptA')).toBe('{"new":true}');
  });

  it('forgets an answer after a second even without an event, and everything on clear', () => {
    const { cache, advance } = setup();
    cache.keep('ptA', VENUE, '{"a":1}', cache.mark());
    advance(999);
    expect(cache.recall('ptA')).toBe('{"a":1}');
    advance(1);
    expect(cache.recall('ptA')).toBeUndefined();
    cache.keep('ptA', VENUE, '{"a":2}', cache.mark());
    cache.keep('enB', OTHER, '{"b":2}', cache.mark());
    cache.clear();
    expect(cache.recall('ptA')).toBeUndefined();
    expect(cache.recall('enB')).toBeUndefined();
  });

  it('publishing through it still reaches every subscriber', () => {
    const { bus, cache } = setup();
    const heard: VenueChannelEvent[] = [];
    bus.subscribe(VENUE, (e) => heard.push(e));
    cache.bus.publish(event(VENUE));
    expect(heard).toEqual([event(VENUE)]);
  });
});
