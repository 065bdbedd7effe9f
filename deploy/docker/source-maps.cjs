// Preloaded by the entrypoint (node --require) before a service's bundle: stack traces of our own code point at
// its TypeScript sources, through the bundle's source map (dist/apps/<service>/main.js.map). Third-party packages'
// maps are left unread: with them (node --enable-source-maps) every pod kept ~13 MiB more of parsed maps for
// frames nobody reads in their TypeScript (docs/performance.md, "A pod's memory").
'use strict';
const { setSourceMapsSupport } = require('node:module');

if (typeof setSourceMapsSupport === 'function') {
  // Node.js 22.14 and later, which the image runs.
  setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
} else {
  // Node.js 20: no choice per folder; every map is read, as --enable-source-maps did.
  process.setSourceMapsEnabled(true);
}
