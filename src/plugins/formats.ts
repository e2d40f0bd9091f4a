/**
 * @module plugins/formats
 * @elysiajs/openapi's bundled type mapper re-registers `date` with a checker
 * that builds a zod schema on every call (~15 µs per value: 2 ms to validate
 * 126 bars). Imported by app.ts after the openapi plugin, this puts the fast,
 * strict checkers of domain/formats back.
 */
import { registerFormats } from '../domain/formats';

registerFormats();
