import { NOTE_MAX_LENGTH, type VenueSettings } from '@vez/contract';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../../components/ui/dropdown';
import type { JoinFormValues } from '../lib/join-form-schema';
import { validationKey } from '../lib/validation-messages';
import { FormTextField } from './form-text-field';
import { PhoneInput } from './phone-input';

interface PersonalDataFieldsProps {
  control: Control<JoinFormValues>;
  settings: Pick<VenueSettings, 'emailRequired' | 'noteMode' | 'sectionMode'>;
  sections: readonly string[];
  /** A logged-in diner's summary stands in for name, phone and email (login journey). */
  hideContact?: boolean;
  /** The venue's channel is WhatsApp: ask, unticked, whether the updates may go by WhatsApp (docs/product.md §10). */
  askWhatsApp?: boolean;
}

/**
 * The personal-data block of step 0 (docs/product.md §12): name and surname, phone, email, then the
 * note, unit, or location plus company per the venue's noteMode, and the section when required.
 * A separate chunk: it carries the phone metadata, needed only once a party size is chosen.
 */
export default function PersonalDataFields({
  control,
  settings,
  sections,
  hideContact = false,
  askWhatsApp = false,
}: PersonalDataFieldsProps) {
  const { t } = useTranslation();
  const phone = useController({ control, name: 'phone' });
  const optIn = useController({ control, name: 'whatsappOptIn' });
  const section = useController({ control, name: 'section' });
  const showError = (touched: boolean) => touched || phone.formState.isSubmitted;
  const phoneKey = showError(phone.fieldState.isTouched) ? validationKey(phone.fieldState.error?.message) : undefined;
  const sectionKey =
    showError(section.fieldState.isTouched) && section.field.value === '' ? undefined : validationKey(section.fieldState.error?.message);

  return (
    <>
      {!hideContact && (
        <>
          <FormTextField
            control={control}
            name="name"
            label={t('join.name')}
            hint={t('join.nameHint')}
            autoComplete="name"
            maxLength={120}
          />
          <PhoneInput
            name={phone.field.name}
            value={phone.field.value}
            onChange={phone.field.onChange}
            onBlur={phone.field.onBlur}
            error={phoneKey ? t(phoneKey) : undefined}
          />
          <FormTextField
            control={control}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            label={settings.emailRequired ? t('join.email') : t('join.emailOptional')}
            hint={settings.emailRequired ? t('validation.required') : undefined}
            maxLength={254}
          />
        </>
      )}
      {settings.sectionMode === 'required' && (
        <Dropdown
          label={t('join.section')}
          name="section"
          placeholder={t('join.select')}
          options={sections.map((s) => ({ value: s, label: s }))}
          value={section.field.value || undefined}
          onChange={(value) => {
            section.field.onChange(value);
            section.field.onBlur();
          }}
          hint={section.field.value ? undefined : t('validation.required')}
          error={sectionKey && section.field.value ? t(sectionKey) : undefined}
        />
      )}
      {settings.noteMode === 'note' && <FormTextField control={control} name="note" label={t('join.note')} maxLength={NOTE_MAX_LENGTH} />}
      {settings.noteMode === 'unit' && (
        <FormTextField control={control} name="note" label={t('join.unit')} hint={t('validation.required')} maxLength={NOTE_MAX_LENGTH} />
      )}
      {settings.noteMode === 'locationAndCompany' && (
        <>
          <FormTextField control={control} name="location" label={t('join.location')} hint={t('validation.required')} maxLength={120} />
          <FormTextField control={control} name="company" label={t('join.company')} maxLength={120} />
        </>
      )}
      {askWhatsApp && (
        <div className="join-form__consent">
          <label className="join-form__check">
            <input
              type="checkbox"
              name={optIn.field.name}
              ref={optIn.field.ref}
              checked={optIn.field.value}
              onChange={(event) => optIn.field.onChange(event.target.checked)}
              onBlur={optIn.field.onBlur}
              aria-describedby="join-whatsapp-hint"
            />
            <span>{t('join.whatsappOptIn')}</span>
          </label>
          <p id="join-whatsapp-hint" className="join-form__consent-hint">
            {t('join.whatsappOptInHint')}
          </p>
        </div>
      )}
    </>
  );
}
