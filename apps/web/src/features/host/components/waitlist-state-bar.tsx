import type { WaitlistState } from '@vez/contract';
import { useHostT } from '../lib/host-i18n';

type Mode = 'open' | 'locked' | 'closed';
const modeOf = (s: WaitlistState): Mode => (!s.active ? 'closed' : s.locked ? 'locked' : 'open');
const stateOf: Record<Mode, WaitlistState> = {
  open: { active: true, locked: false },
  locked: { active: true, locked: true },
  closed: { active: false, locked: false },
};

/** Open (remote joins), locked (walk-ins only) or closed: one radio group. */
export function WaitlistStateBar({
  state,
  pending,
  onChange,
}: {
  state: WaitlistState;
  pending: boolean;
  onChange: (s: WaitlistState) => void;
}) {
  const { t } = useHostT();
  const current = modeOf(state);
  return (
    <fieldset className="host-state" disabled={pending}>
      <legend>{t('state.legend')}</legend>
      {(['open', 'locked', 'closed'] as const).map((mode) => (
        <label key={mode} className={`host-state__option host-state__option--${mode}`}>
          <input type="radio" name="waitlist-state" value={mode} checked={current === mode} onChange={() => onChange(stateOf[mode])} />
          <span>{t(`state.${mode}`)}</span>
        </label>
      ))}
      <p className="host-state__hint">{t(`state.${current}Hint`)}</p>
    </fieldset>
  );
}
