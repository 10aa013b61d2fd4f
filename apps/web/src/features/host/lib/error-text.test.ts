import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorText } from './error-text';
import { HOST_NS, registerHostStrings } from './host-i18n';

const quota = new ApiError(409, {
  code: 'IMAGE_QUOTA_EXCEEDED',
  field: 'file',
  message: 'This venue has 20 images stored; the most is 20. Delete one before uploading another.',
});

/** docs/decisions/026: an upload past the venue's image quota says so in the console's language, with the limit. */
describe('the console’s sentence for a full image quota', () => {
  beforeEach(() => registerHostStrings());

  it('is Portuguese by default, followed by the server’s message naming the limit', async () => {
    await initI18n().changeLanguage('pt');
    expect(errorText(i18next.getFixedT('pt', HOST_NS), quota)).toBe(
      'As imagens deste local chegaram ao limite: apague uma antes de enviar outra. This venue has 20 images stored; the most is 20. Delete one before uploading another.',
    );
  });

  it('and English in English', () => {
    expect(errorText(i18next.getFixedT('en', HOST_NS), quota)).toMatch(
      /^This venue's images have reached their limit: delete one before uploading another\. This venue has 20 images/,
    );
  });
});
