import type { PositionResponse } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { isFinalView, toPositionView } from './position-view';

function answer(patch: Partial<PositionResponse['waitlist']> = {}, hidden = false): PositionResponse {
  return {
    waitlist: {
      status: 'active',
      globalPos: 5,
      pos: 5,
      priority: false,
      _id: 'own-id-aaaaaaaaaaaaaaaa',
      arrivedAt: '2026-11-22T01:00:00.000Z',
      customer: { _id: 'own-id-aaaaaaaaaaaaaaaa', name: 'Ana Souza' },
      customerTab: '12',
      estimatedTime: null,
      origin: { _id: 'widget', label: 'Widget' },
      partySize: 2,
      venue: '6553f1a2b3c4d5e6f7a8b901',
      hideCustomerPosition: false,
      operationMode: 'basic',
      displayHelpers: { partyLabel: '2 pessoas', priorityText: '' },
      shareId: 'share-id-bbbbbbbbbbbbbb',
      isShared: false,
      cancelReason: null,
      notifiedAt: null,
      seatedAt: null,
      reply: null,
      holdUntil: null,
      calls: 0,
      messages: [],
      joinedClose: false,
      ...patch,
    },
    waitlistSettings: { hiddenCustomerPosition: hidden, operationMode: 'basic', gettingCloseAt: 3, gettingCloseMinutes: 15 },
  };
}
const own = { isSharedLink: false };

describe('toPositionView: the state machine of docs/product.md §14', () => {
  it('shows the hidden-position message when the answer carries no figures (docs/product.md §4)', () => {
    const { globalPos: _g, pos: _p, estimatedTime: _e, ...noFigures } = answer().waitlist;
    const data: PositionResponse = {
      waitlist: noFigures,
      waitlistSettings: { ...answer().waitlistSettings, hiddenCustomerPosition: true },
    };
    expect(toPositionView(data, own)).toMatchObject({
      kind: 'waiting',
      isPositionHidden: true,
      isTurnComing: false,
      estimatedMinutes: null,
    });
  });

  it('shows a waiting diner their position, party, order pad and both buttons', () => {
    expect(toPositionView(answer(), own)).toEqual({
      kind: 'waiting',
      position: 5,
      generalPosition: 5,
      isPositionHidden: false,
      isTurnComing: false,
      canLeave: true,
      canShare: true,
      partySize: 2,
      customerTab: '12',
      estimatedMinutes: null,
      estimatedRange: null,
      isPriority: false,
    });
  });

  it('shows the band position in advanced mode and the general one beside it', () => {
    const view = toPositionView(answer({ pos: 2, globalPos: 7, operationMode: 'advanced' }), own);
    // The notice counts the whole queue, as the getting-close message does (docs/product.md §8).
    expect(view).toMatchObject({ kind: 'waiting', position: 2, generalPosition: 7, isTurnComing: false });
  });

  it.each([
    [1, true],
    [3, true],
    [4, false],
  ])('turn-is-coming notice at position %i: %s', (pos, expected) => {
    expect(toPositionView(answer({ pos, globalPos: pos }), own)).toMatchObject({ isTurnComing: expected });
  });

  it.each([
    [2, { low: 5, high: 15 }, true],
    [2, { low: 10, high: 25 }, false],
    [4, { low: 1, high: 5 }, false],
  ])('the notice follows the getting-close rule by time too (place %i, range %o): %s', (globalPos, estimatedRange, expected) => {
    const view = toPositionView(answer({ pos: globalPos, globalPos, estimatedTime: 8, estimatedRange }), own);
    expect(view).toMatchObject({ isTurnComing: expected });
  });

  it('no notice for a party that joined already that close, as no message', () => {
    expect(toPositionView(answer({ pos: 1, globalPos: 1, joinedClose: true }), own)).toMatchObject({ isTurnComing: false });
  });

  it('rounds the estimated time to whole minutes, at least one', () => {
    expect(toPositionView(answer({ estimatedTime: 12.4 }), own)).toMatchObject({ estimatedMinutes: 12 });
    expect(toPositionView(answer({ estimatedTime: 0.2 }), own)).toMatchObject({ estimatedMinutes: 1 });
  });

  it('shows the range the wait most likely falls in (docs/product.md §4), never a range of one figure', () => {
    const range = (low: number, high: number) => toPositionView(answer({ estimatedTime: 17, estimatedRange: { low, high } }), own);
    expect(range(15, 20)).toMatchObject({ estimatedMinutes: 17, estimatedRange: { low: 15, high: 20 } });
    expect(range(0, 3)).toMatchObject({ estimatedRange: { low: 0, high: 3 } });
    expect(range(4, 4)).toMatchObject({ estimatedMinutes: 17, estimatedRange: null });
    expect(toPositionView(answer({ estimatedTime: null, estimatedRange: { low: 1, high: 2 } }), own)).toMatchObject({
      estimatedRange: null,
    });
  });

  it('hides the position by venue setting or by entry flag', () => {
    expect(toPositionView(answer({}, true), own)).toMatchObject({ isPositionHidden: true });
    expect(toPositionView(answer({ hideCustomerPosition: true }), own)).toMatchObject({ isPositionHidden: true });
  });

  it('gives a shared link no leave and no share, by address or by answer', () => {
    expect(toPositionView(answer(), { isSharedLink: true })).toMatchObject({ canLeave: false, canShare: false });
    expect(toPositionView(answer({ isShared: true, shareId: null }), own)).toMatchObject({ canLeave: false, canShare: false });
  });

  it('turns waiting into called on notifiedAt, even before the status says so', () => {
    expect(toPositionView(answer({ notifiedAt: '2026-11-22T01:10:00.000Z' }), own)).toEqual({ kind: 'called' });
    expect(toPositionView(answer({ status: 'called', globalPos: 0 }), own)).toEqual({ kind: 'called' });
  });

  it('turns called into seated on seatedAt', () => {
    const seated = answer({ status: 'seated', notifiedAt: '2026-11-22T01:10:00.000Z', seatedAt: '2026-11-22T01:12:00.000Z' });
    expect(toPositionView(seated, own)).toEqual({ kind: 'seated' });
    expect(toPositionView(answer({ seatedAt: '2026-11-22T01:12:00.000Z' }), own)).toEqual({ kind: 'seated' });
  });

  it('a cancel reason wins over everything: no longer on the waitlist', () => {
    expect(toPositionView(answer({ cancelReason: 'Customer' }), own)).toEqual({ kind: 'none' });
    expect(toPositionView(answer({ status: 'cancelled', cancelReason: 'NoShow', notifiedAt: '2026-11-22T01:10:00.000Z' }), own)).toEqual({
      kind: 'none',
    });
  });

  it('shows nothing for a status the product does not know', () => {
    const odd = answer({ status: 'archived' as PositionResponse['waitlist']['status'] });
    expect(toPositionView(odd, own)).toEqual({ kind: 'unknown' });
  });

  it('treats seated and gone as final, waiting and called as live', () => {
    expect(isFinalView({ kind: 'seated' })).toBe(true);
    expect(isFinalView({ kind: 'none' })).toBe(true);
    expect(isFinalView({ kind: 'called' })).toBe(false);
    expect(isFinalView(toPositionView(answer(), own))).toBe(false);
    expect(isFinalView(undefined)).toBe(false);
  });
});
