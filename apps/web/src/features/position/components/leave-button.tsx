import { useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useLeaveWaitlist } from '../hooks/use-leave-waitlist';
import type { TextFn } from '../hooks/use-venue-text';

interface LeaveButtonProps {
  waitlistId: string;
  venueId: string;
  customerId: string;
  text: TextFn;
}

/** Leave, after the confirmation of docs/product.md §15; 'Failed to leave the waitlist.' when refused. */
export function LeaveButton({ waitlistId, venueId, customerId, text }: LeaveButtonProps) {
  const [isConfirming, setConfirming] = useState(false);
  const leave = useLeaveWaitlist(waitlistId);
  return (
    <>
      <button type="button" className="button button--secondary button--block" onClick={() => setConfirming(true)}>
        {text('position.leave')}
      </button>
      <Modal
        open={isConfirming}
        type="warning"
        title={text('position.leaveConfirm')}
        closeLabel={text('common.close')}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button
              type="button"
              className="button button--primary button--block"
              disabled={leave.isPending}
              onClick={() => {
                void leave.leave({ venueId, customerId }).finally(() => setConfirming(false));
              }}
            >
              {text('position.leaveYes')}
            </button>
            <button type="button" className="button button--secondary button--block" autoFocus onClick={() => setConfirming(false)}>
              {text('position.leaveNo')}
            </button>
          </>
        }
      />
      <Modal
        open={leave.isError}
        type="error"
        title={text('position.leaveFailed')}
        closeLabel={text('common.close')}
        onClose={() => leave.reset()}
        actions={
          <button type="button" className="button button--primary button--block" autoFocus onClick={() => leave.reset()}>
            {text('common.ok')}
          </button>
        }
      />
    </>
  );
}
