import { useMemo } from 'react';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../../components/ui/dropdown';
import type { JoinFormValues } from '../lib/join-form-schema';
import { validationKey } from '../lib/validation-messages';

interface PartySizeSelectProps {
  control: Control<JoinFormValues>;
  maxPartySize: number;
  /** First touch of the select: prefetch the personal-data block. */
  onFirstInteraction: () => void;
}

/** Party size first (docs/product.md §12): 1..maxPartySize, '1 lugar' / '2 lugares' ('seat' / 'seats'). */
export function PartySizeSelect({ control, maxPartySize, onFirstInteraction }: PartySizeSelectProps) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'partySize' });
  // Only the server's refusal shows here (docs/product.md §15): the select offers allowed sizes alone.
  const serverKey = fieldState.error?.type === 'server' ? validationKey(fieldState.error.message) : undefined;
  const options = useMemo(
    () =>
      Array.from({ length: Math.max(1, maxPartySize) }, (_, i) => ({
        value: String(i + 1),
        label: t('join.seat', { count: i + 1 }),
      })),
    [maxPartySize, t],
  );
  return (
    <Dropdown
      label={t('join.partySize')}
      name="partySize"
      placeholder={t('join.select')}
      options={options}
      value={field.value || undefined}
      onChange={(value) => {
        field.onChange(value);
        field.onBlur();
      }}
      onFirstInteraction={onFirstInteraction}
      error={serverKey ? t(serverKey) : undefined}
    />
  );
}
