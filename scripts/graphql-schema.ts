/**
 * Prints the GraphQL schema /api/graphql serves (graphql/schema's buildSchema)
 * as SDL into src/modules/graphql/schema.graphql, the file client codegen reads
 * (`npm run graphql:generate` runs this, then graphql-codegen). A test checks
 * the committed file against the served schema.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/modules/graphql/schema';

const target = join(import.meta.dir, '../src/modules/graphql/schema.graphql');
writeFileSync(target, `${printSchema(buildSchema())}\n`);
console.log(`wrote ${target}`);
