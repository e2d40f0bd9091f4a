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
