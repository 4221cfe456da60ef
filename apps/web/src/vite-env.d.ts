/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin when it differs from the page's (defaults to same origin). */
  readonly VITE_API_BASE_URL?: string;
  /** Privacy contact shown in the privacy policy, e.g. `privacy@example.org`. */
  readonly VITE_PRIVACY_CONTACT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
