import { FallbackPage } from '../../features/not-found';

export default function FallbackRoute() {
  return <FallbackPage />;
}
