import type { OtpChannel } from '@vez/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface ChannelToggleProps {
  value: OtpChannel;
  onChange: (channel: OtpChannel) => void;
  /** Step 0 had an email: without one the code can only go by SMS. */
  hasEmail: boolean;
  disabled?: boolean;
}

/** The sms/email toggle of step 1: two radio buttons styled as one segmented control. */
export function ChannelToggle({ value, onChange, hasEmail, disabled }: ChannelToggleProps) {
  const { t } = useTranslation();
  const name = useId();
  const options: { channel: OtpChannel; label: string; enabled: boolean }[] = [
    { channel: 'sms', label: t('verification.bySms'), enabled: true },
    { channel: 'email', label: t('verification.byEmail'), enabled: hasEmail },
  ];
  return (
    <fieldset className="channel-toggle" disabled={disabled}>
      <legend className="channel-toggle__legend">{t('verification.channel')}</legend>
      <div className="channel-toggle__options">
        {options.map((option) => (
          <label key={option.channel} className="channel-toggle__option">
            <input
              type="radio"
              name={name}
              value={option.channel}
              checked={value === option.channel}
              disabled={!option.enabled}
              onChange={() => onChange(option.channel)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
