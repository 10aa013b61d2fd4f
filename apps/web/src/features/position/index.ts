/** The position feature: the live position page's content; the route adds the venue frame. */
export { PositionScreen, type PositionVenue } from './components/position-screen';
export { usePosition } from './hooks/use-position';
export { toPositionView, type PositionView } from './lib/position-view';
