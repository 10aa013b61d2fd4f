import { HostConsole } from '../../features/host';

/** /host/*: the host console, its own lazy chunk (the diner pages never load it). */
export default function HostRoute() {
  return <HostConsole />;
}
