import { NotFoundPage } from '../../features/not-found';

export default function NotFoundRoute() {
  return <NotFoundPage />;
}
