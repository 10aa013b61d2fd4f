// The web bench's reference page (bench/web.bench.ts): React and react-dom rendering one small screen,
// built by the bench into its own copy of the web build and served by the same server. Lighthouse's
// simulated throttling scales with the host's speed, so each diner page is read against this page
// measured in the same run. Built only by the bench: never shipped to users.
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';

function Reference() {
  return h(
    'main',
    { style: { fontFamily: 'system-ui, sans-serif', padding: '16px', color: '#2b2118' } },
    h('h1', null, 'Vez'),
    h('p', null, 'Entre na fila de espera do restaurante pelo celular.'),
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(h(Reference));
