// Parses Mermaid diagrams with Mermaid's own parser, headless: jsdom gives
// it the DOM it expects. Usage: node check-mermaid.mjs FILE... (one diagram
// per file). Prints each diagram that does not parse, exits 1 if any.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');

let bad = 0;
for (const file of process.argv.slice(2)) {
  try {
    await mermaid.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    bad++;
    console.log(`${file}: ${String(e.message ?? e).split('\n').join('\n  ')}`);
  }
}
console.log(`${process.argv.length - 2 - bad} of ${process.argv.length - 2} diagrams parse`);
process.exit(bad ? 1 : 0);
