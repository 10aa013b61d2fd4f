import { addTranslations } from '../../../lib/i18n';

/** The leave confirmation's texts (docs/product.md §15): loaded with the dialog on the first tap, not with every position page (its JS budget is 120 KB). */
addTranslations({
  pt: {
    position: {
      leaveConfirm: 'Deseja sair da fila?',
      leaveYes: 'Sim, sair da fila',
      leaveNo: 'Não, continuar',
      leaveFailed: 'Não foi possível sair da fila.',
    },
  },
  en: {
    position: {
      leaveConfirm: 'Would you like to leave the waitlist?',
      leaveYes: 'Yes, leave',
      leaveNo: 'No, stay',
      leaveFailed: 'Failed to leave the waitlist.',
    },
  },
});
