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
