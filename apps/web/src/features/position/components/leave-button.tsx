import { Suspense, lazy, useState } from 'react';
import type { TextFn } from '../hooks/use-venue-text';

/** The confirmation and the request load on the first tap: the page's JS budget is 120 KB. */
const LeaveDialog = lazy(() => import('./leave-dialog'));

interface LeaveButtonProps {
  waitlistId: string;
  venueId: string;
  customerId: string;
  text: TextFn;
}

/** Leave, after the confirmation of docs/product.md §15; 'Failed to leave the waitlist.' when refused. */
export function LeaveButton(props: LeaveButtonProps) {
  const [isConfirming, setConfirming] = useState(false);
  const [isOpened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--block"
        onClick={() => {
          setOpened(true);
          setConfirming(true);
        }}
      >
        {props.text('position.leave')}
      </button>
      {isOpened && (
        <Suspense fallback={null}>
          <LeaveDialog {...props} isConfirming={isConfirming} setConfirming={setConfirming} />
        </Suspense>
      )}
    </>
  );
}
