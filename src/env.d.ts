/** Data files bundled as text (`import text from './x.csv' with { type: 'text' }`). */
declare module '*.csv' {
  const text: string;
  export default text;
}
