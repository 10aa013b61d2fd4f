// Import boundaries of conventions.md §1, as lint errors whose messages say what to do instead.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webSrc = path.join(root, 'apps/web/src');
const serverSrc = path.join(root, 'apps/server/src');

function area(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'packages' && rel[1] === 'contract') return { app: 'contract' };
  if (rel[0] === 'apps' && rel[1] === 'web') {
    const inSrc = path.relative(webSrc, file).split(path.sep);
    return { app: 'web', layer: inSrc[0], feature: inSrc[0] === 'features' ? inSrc[1] : undefined };
  }
  if (rel[0] === 'apps' && rel[1] === 'server') return { app: 'server', rel: path.relative(serverSrc, file) };
  return { app: rel[0] };
}

/** The server module a file belongs to (apps/server/src/modules/<name>/…), if any. */
function moduleOf(file) {
  const rel = path.relative(path.join(serverSrc, 'modules'), file).split(path.sep);
  return rel[0] !== '..' && rel.length > 1 ? rel[0] : undefined;
}

const messages = {
  crossFeature:
    'Feature "{{from}}" imports feature "{{to}}". A feature never imports another feature: move the shared piece to components/ or lib/, or compose both in src/app.',
  sharedImportsFeature:
    'Shared code ({{layer}}/) imports from {{to}}/. Imports flow shared → features → app: move what you need down into components/ or lib/.',
  contractImport:
    'The contract package imports only its schema library (zod/mini), the phone library (libphonenumber-js/min, docs/decisions/028) and its own files: "{{source}}" is not allowed.',
  crossApp: 'apps/{{from}} imports apps/{{to}}: apps share code only through packages/ (put it in @vez/contract).',
  classicZodInWeb: 'The browser must not load classic zod (92 KB gzip): import from "zod/mini" or from @vez/contract instead.',
  foreignRepository:
    'Module "{{from}}" imports the repository of module "{{to}}". Modules never reach into another module\'s repository: ask "{{to}}" through its services (for the queue, modules/queue/index.ts).',
  kyselyOutsideRepository:
    'Only repositories and db/ touch Kysely (docs/ARCHITECTURE.md, habit 3): move this query into a *.repository.ts and call it from the service.',
};

export const boundaries = {
  meta: { type: 'problem', messages, schema: [] },
  create(context) {
    const file = context.filename;
    const from = area(file);
    return {
      ImportDeclaration(node) {
        const source = String(node.source.value);
        // The contract's own tests may use the test runner and fast-check; what the contract ships may not.
        if (
          from.app === 'contract' &&
          !source.startsWith('.') &&
          source !== 'zod/mini' &&
          source !== 'libphonenumber-js/min' &&
          !(/\.test\.ts$/.test(file) && (source === 'vitest' || source === 'fast-check'))
        ) {
          context.report({ node, messageId: 'contractImport', data: { source } });
        }
        if (from.app === 'web' && (source === 'zod' || source === 'zod/v4')) {
          context.report({ node, messageId: 'classicZodInWeb' });
        }
        // A value import of kysely (`sql`, `Kysely`) is where SQL starts; tools/eslint-sql-home.js refuses
        // the rest of it (query builders, transactions, raw statements) outside repositories and db/.
        if (
          from.app === 'server' &&
          source === 'kysely' &&
          node.importKind !== 'type' &&
          !/(^db\/|\.repository\.ts$|\.test\.ts$)/.test(from.rel.split(path.sep).join('/'))
        ) {
          context.report({ node, messageId: 'kyselyOutsideRepository' });
        }
        if (!source.startsWith('.')) return;
        const target = path.resolve(path.dirname(file), source);
        if (from.app === 'server' && !/\.test\.ts$/.test(file) && /\.repository(\.[jt]s)?$/.test(source)) {
          const fromModule = moduleOf(file);
          const toModule = moduleOf(target);
          if (fromModule && toModule && fromModule !== toModule) {
            context.report({ node, messageId: 'foreignRepository', data: { from: fromModule, to: toModule } });
          }
        }
        const to = area(target);
        if (from.app !== to.app && ['web', 'server', 'contract'].includes(to.app) && from.app !== 'e2e' && from.app !== 'bench') {
          context.report({ node, messageId: 'crossApp', data: { from: from.app, to: to.app } });
          return;
        }
        if (from.app !== 'web' || to.app !== 'web') return;
        if (from.feature && to.feature && from.feature !== to.feature) {
          context.report({ node, messageId: 'crossFeature', data: { from: from.feature, to: to.feature } });
        }
        if (['components', 'lib', 'config', 'locales'].includes(from.layer) && ['features', 'app'].includes(to.layer)) {
          context.report({ node, messageId: 'sharedImportsFeature', data: { layer: from.layer, to: to.layer } });
        }
      },
    };
  },
};
