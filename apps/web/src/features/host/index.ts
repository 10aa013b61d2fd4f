export { HostConsole } from './components/host-console';
