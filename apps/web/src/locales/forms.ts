import { addTranslations } from '../lib/i18n';
import { enForms } from './en/forms';
import { ptForms } from './pt/forms';

// Imported for its effect by the screens that use these texts (join, terms) and by the web tests.
addTranslations({ pt: ptForms, en: enForms });
