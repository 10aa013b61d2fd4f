/**
 * Runtime settings the server injects in `<meta name="vez-config">` (the CSP forbids inline
 * scripts, so a meta tag carries them). Missing or broken meta (Vite dev, tests) falls back to
 * same-origin defaults.
 */
export interface RuntimeConfig {
  imageBaseUrl: string;
  sentryDsn: string;
  smartLinkBaseUrl: string;
  /** Base of the API; same origin by default. Tests point it at an in-process server. */
  apiBaseUrl: string;
}

const defaults: RuntimeConfig = {
  imageBaseUrl: '/images',
  sentryDsn: '',
  smartLinkBaseUrl: 'https://reservas.vez.example/',
  apiBaseUrl: '/api',
};

let cached: RuntimeConfig | undefined;

function readMeta(): Partial<RuntimeConfig> {
  if (typeof document === 'undefined') return {};
  const content = document.querySelector('meta[name="vez-config"]')?.getAttribute('content');
  if (!content) return {};
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const out: Partial<RuntimeConfig> = {};
    for (const key of Object.keys(defaults) as (keyof RuntimeConfig)[]) {
      const value = (parsed as Record<string, unknown>)[key];
      if (typeof value === 'string') out[key] = value;
    }
    return out;
  } catch {
    return {};
  }
}

export function getRuntimeConfig(): RuntimeConfig {
  cached ??= { ...defaults, ...readMeta() };
  return cached;
}

/** For tests: override settings (for example the API base of an in-process server). */
export function setRuntimeConfig(patch: Partial<RuntimeConfig>): void {
  cached = { ...getRuntimeConfig(), ...patch };
}
