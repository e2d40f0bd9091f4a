/**
 * @module index
 * The executable: `breakline [command]`. The commands live in src/cli, one a
 * file; with none it serves (src/cli/serve.ts).
 */
import { main } from './cli';

await main(process.argv.slice(2));
