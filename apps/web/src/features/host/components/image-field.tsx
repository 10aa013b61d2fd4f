import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import { uploadVenueImage } from '../api/host-api';
import { errorText } from '../lib/error-text';
import { imageSrc } from '../lib/format';
import { useHostT } from '../lib/host-i18n';

interface Props {
  venueId: string;
  label: string;
  path: string;
  onChange: (path: string) => void;
}

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml';

/** An image setting: its preview (as diners get it, webp) and an upload to the image host. */
export function ImageField({ venueId, label, path, onChange }: Props) {
  const { t } = useHostT();
  const id = useId();
  const upload = useMutation({ mutationFn: (file: File) => uploadVenueImage(venueId, file), onSuccess: (res) => onChange(res.path) });
  const src = imageSrc(getRuntimeConfig().imageBaseUrl, path);
  return (
    <div className="host-image">
      <span className="host-image__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="host-image__preview">
        {src ? <img src={src} alt={t('settings.previewOf', { label })} /> : <span>{t('settings.noImage')}</span>}
      </div>
      <div className="host-image__buttons">
        <label className="host-chip host-upload">
          <input
            type="file"
            accept={ACCEPT}
            className="visually-hidden"
            aria-labelledby={`${id}-label ${id}-upload`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file);
              e.target.value = '';
            }}
          />
          <span id={`${id}-upload`}>{upload.isPending ? t('settings.uploading') : t('settings.upload')}</span>
        </label>
        {path && (
          <button type="button" className="host-chip" onClick={() => onChange('')}>
            {t('settings.clearImage')}
          </button>
        )}
      </div>
      <p role="alert" className="host-error">
        {upload.error ? errorText(t, upload.error) : ''}
      </p>
    </div>
  );
}
