import { useEffect, useRef, useState } from 'react';

/** The entry of the host console's own build in dist/host-manifest.json (vite.host.config.ts). */
interface HostManifestEntry {
  file: string;
  css?: string[];
}
const HOST_ENTRY = 'src/features/host/mount.tsx';

async function loadHostConsole(): Promise<{ mountHostConsole: (element: HTMLElement) => () => void }> {
  if (import.meta.env.DEV) return import('../../features/host/mount');
  const response = await fetch('/host-manifest.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`host-manifest.json: HTTP ${response.status}`);
  const entry = ((await response.json()) as Record<string, HostManifestEntry>)[HOST_ENTRY];
  if (!entry) throw new Error('host-manifest.json has no console entry');
  for (const href of entry.css ?? []) {
    if (document.querySelector(`link[href="/${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = `/${href}`;
    document.head.append(link);
  }
  return import(/* @vite-ignore */ `/${entry.file}`) as Promise<{ mountHostConsole: (element: HTMLElement) => () => void }>;
}

/**
 * /host/*: mounts the host console, a separate build (see vite.host.config.ts) so the diner pages'
 * chunks stay exactly as they are.
 */
export default function HostRoute() {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let unmount: (() => void) | undefined;
    let cancelled = false;
    loadHostConsole()
      .then(({ mountHostConsole }) => {
        if (!cancelled && ref.current) unmount = mountHostConsole(ref.current);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      // Not during this tree's commit: the console's root unmounts right after it.
      if (unmount) setTimeout(unmount, 0);
    };
  }, []);
  return (
    <div className="host-mount">
      <div ref={ref} />
      {failed && <p role="alert">The host console could not be loaded. Reload the page.</p>}
    </div>
  );
}
