import type { MouseEvent, ReactNode } from 'react';
import { navigateHost } from '../lib/host-location';

/** A link inside the console: a real href (new tab works), same-tab clicks stay in the app. */
export function HostLink({
  to,
  isCurrent,
  className,
  children,
}: {
  to: string;
  isCurrent: boolean;
  className?: string;
  children: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigateHost(to);
  };
  return (
    <a href={to} className={className} aria-current={isCurrent ? 'page' : undefined} onClick={onClick}>
      {children}
    </a>
  );
}
