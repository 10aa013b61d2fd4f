export { NotFoundPage } from './components/not-found-page';
export { FallbackPage } from './components/fallback-page';
