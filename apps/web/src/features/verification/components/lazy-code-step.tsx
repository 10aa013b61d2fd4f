import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import type { CodeStepProps } from './code-step';

/** Step 1 is its own chunk: most diners never see it, and the join page keeps its budget. */
export const loadCodeStep = () => import('./code-step');
const CodeStepChunk = lazy(loadCodeStep);

export function LazyCodeStep(props: CodeStepProps) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Spinner label={t('common.loading')} />}>
      <CodeStepChunk {...props} />
    </Suspense>
  );
}
