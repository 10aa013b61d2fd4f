import { Modal } from '../../../components/ui/modal';
import { useLeaveWaitlist } from '../hooks/use-leave-waitlist';
import type { TextFn } from '../hooks/use-venue-text';
import '../lib/leave-texts';

interface LeaveDialogProps {
  waitlistId: string;
  venueId: string;
  customerId: string;
  text: TextFn;
  isConfirming: boolean;
  setConfirming: (confirming: boolean) => void;
}

/** The confirmation of docs/product.md §15, and 'Failed to leave the waitlist.' when refused. */
export default function LeaveDialog({ waitlistId, venueId, customerId, text, isConfirming, setConfirming }: LeaveDialogProps) {
  const leave = useLeaveWaitlist(waitlistId);
  return (
    <>
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
