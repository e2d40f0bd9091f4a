/** Data files bundled as text (`import text from './x.csv' with { type: 'text' }`). */
declare module '*.csv' {
  const text: string;
  export default text;
}

/** PGlite's binary assets, imported as embedded files (their path at run time). */
declare module '@electric-sql/pglite/pglite.wasm' {
  const path: string;
  export default path;
}
declare module '@electric-sql/pglite/initdb.wasm' {
  const path: string;
  export default path;
}
declare module '@electric-sql/pglite/pglite.data' {
  const path: string;
  export default path;
}

/** The docs UI's assets from swagger-ui-dist, imported as embedded files (their path at run time). */
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string;
  export default path;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string;
  export default path;
}

/** The PGlite template data directory (drizzle/pglite-template.tar.zst), imported as an embedded file (its path at run time). */
declare module '*.tar.zst' {
  const path: string;
  export default path;
}

/**
 * prom-client's modules one by one (its entry module loads them all, default
 * metrics, push gateway and cluster aggregation among them: src/metrics). Each
 * exports what the entry module exports under that name.
 */
declare module 'prom-client/lib/registry' {
  import { Registry } from 'prom-client';
  export default Registry;
}
declare module 'prom-client/lib/counter' {
  import { Counter } from 'prom-client';
  export default Counter;
}
declare module 'prom-client/lib/gauge' {
  import { Gauge } from 'prom-client';
  export default Gauge;
}
declare module 'prom-client/lib/histogram' {
  import { Histogram } from 'prom-client';
  export default Histogram;
}
/** One of prom-client's default metrics (lib/metrics/*): registers its families on `registry`. */
declare module 'prom-client/lib/metrics/*' {
  import type { Registry } from 'prom-client';
  const register: (registry: Registry, config: { prefix?: string; eventLoopMonitoringPrecision?: number }) => void;
  export default register;
}

/** The web console's stylesheet, imported for its side effect: Bun.build bundles it (src/console/bundle). */
declare module '*.css';
