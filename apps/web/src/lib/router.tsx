/**
 * The diner pages' router over the History API (docs/decisions/034-lean-diner-pages.md): the part of
 * react-router 7 these pages use — `<BrowserRouter>`, `<Routes>`/`<Route>` matching a flat list of
 * paths, `<Link>`, `<Navigate>`, `useParams`, `useNavigate`, `useSearchParams`, `useLocation`,
 * `matchPath`, and `<MemoryRouter>` for tests — in about 1 KB gzip instead of 12 KB on every diner page.
 * Like react-router, a navigation renders in a transition (the screen on show stays until the next
 * one's lazy chunk is there), paths match case-insensitively with an optional trailing slash, and
 * params are decoded.
 */
import {
  Children,
  type ComponentPropsWithoutRef,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  createContext,
  isValidElement,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

type Navigate = (to: string, options?: NavigateOptions) => void;

/** Where the router reads and writes the address: the browser's history, or a list in memory (tests). */
interface History {
  location: () => Location;
  go: (to: string, replace: boolean) => void;
  listen: (onChange: () => void) => () => void;
}

const parse = (to: string): Location => {
  const url = new URL(to, 'http://x');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

function browserHistory(): History {
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((fn) => fn());
  return {
    location: () => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash }),
    go(to, replace) {
      if (replace) window.history.replaceState(null, '', to);
      else window.history.pushState(null, '', to);
      notify();
    },
    listen(onChange) {
      listeners.add(onChange);
      window.addEventListener('popstate', onChange);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener('popstate', onChange);
      };
    },
  };
}

function memoryHistory(initial: string): History {
  const listeners = new Set<() => void>();
  const entries = [parse(initial)];
  return {
    location: () => entries[entries.length - 1]!,
    go(to, replace) {
      if (replace) entries.pop();
      entries.push(parse(to));
      listeners.forEach((fn) => fn());
    },
    listen(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

interface RouterState {
  location: Location;
  navigate: Navigate;
}

const RouterContext = createContext<RouterState | null>(null);
const ParamsContext = createContext<Record<string, string>>({});

function Router({ history, children }: { history: History; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  // Before any child's effect (a <Navigate> on the first render) navigates.
  useLayoutEffect(() => {
    const update = () => {
      const next = history.location();
      startTransition(() =>
        setLocation((current) =>
          current.pathname === next.pathname && current.search === next.search && current.hash === next.hash ? current : next,
        ),
      );
    };
    const stop = history.listen(update);
    update(); // a change between the first render and this effect
    return stop;
  }, [history]);
  const navigate = useCallback<Navigate>((to, options) => history.go(to, Boolean(options?.replace)), [history]);
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(browserHistory);
  return <Router history={history}>{children}</Router>;
}

/** For tests: the address starts at `initialEntries`' last entry and lives in memory. */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [history] = useState(() => memoryHistory(initialEntries[initialEntries.length - 1] ?? '/'));
  return <Router history={history}>{children}</Router>;
}

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks and links need a <BrowserRouter> or <MemoryRouter> above them.');
  return router;
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches a path pattern (`/waitlist/:waitlistId`, `/host/*`, `*`) against a pathname, like
 * react-router's `matchPath`: case-insensitive, an optional trailing slash, params decoded.
 */
export function matchPath(pattern: string, pathname: string): { params: Record<string, string> } | null {
  const names: string[] = [];
  let source = pattern
    .replace(/\/*\*?$/, '')
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return escapeRegExp(part);
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const splat = pattern.endsWith('*');
  if (splat) {
    names.push('*');
    source += source === '' ? '/?(.*)' : '(?:/(.*))?';
  }
  const match = new RegExp(`^${source}${splat ? '' : '/?'}$`, 'i').exec(pathname);
  if (!match) return null;
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = match[i + 1] ?? '';
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      params[name] = value;
    }
  });
  return { params };
}

interface RouteProps {
  path: string;
  element: ReactNode;
}

/** One route of `<Routes>`; never rendered by itself. */
export function Route(_props: RouteProps): null {
  return null;
}

/** Renders the element of the first `<Route>` whose path matches the address. */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useRouter().location;
  for (const child of Children.toArray(children)) {
    if (!isValidElement(child)) continue;
    const { path, element } = (child as ReactElement<RouteProps>).props;
    const match = matchPath(path, pathname);
    if (match) return <ParamsContext.Provider value={match.params}>{element}</ParamsContext.Provider>;
  }
  return null;
}

export const useParams = (): Record<string, string | undefined> => useContext(ParamsContext);
export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): Navigate => useRouter().navigate;

type SearchParamsInit = URLSearchParams | ((current: URLSearchParams) => URLSearchParams);

/** The address's query as `URLSearchParams`, and a setter that keeps the path (and the hash). */
export function useSearchParams(): [URLSearchParams, (next: SearchParamsInit, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const current = useRef(location);
  current.current = location;
  const setParams = useCallback(
    (next: SearchParamsInit, options?: NavigateOptions) => {
      const { pathname, search, hash } = current.current;
      const query = (typeof next === 'function' ? next(new URLSearchParams(search)) : next).toString();
      navigate(`${pathname}${query ? `?${query}` : ''}${hash}`, options);
    },
    [navigate],
  );
  return [params, setParams];
}

/** Navigates once rendered (`replace` keeps no history entry), like react-router's `<Navigate>`. */
export function Navigate({ to, replace }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps = { to: string; replace?: boolean; children: ReactNode } & Omit<ComponentPropsWithoutRef<'a'>, 'href'>;

/** An `<a href>` that navigates in the page on a plain left click (new tab and the like stay the browser's). */
export function Link({ to, replace, onClick, children, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return (
    <a href={to} onClick={handleClick} {...rest}>
      {children}
    </a>
  );
}
