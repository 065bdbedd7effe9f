const { Compilation, sources } = require('webpack');

const NAME = 'AsciiOnlyPlugin';
// UTF-16 code units, not code points: a character outside the BMP becomes the escapes of its surrogate pair, which
// mean the same character in strings, templates, identifiers and regular expressions (with or without the u flag).
// U+2028 and U+2029 stay: outside a string they end a line, which an escape would not (a `//` comment would run on).
const NON_ASCII = /[\u0080-\u2027\u202a-\uffff]/g;

/**
 * Writes every character of the emitted JavaScript outside ASCII as a \uXXXX escape. V8 keeps a script's source text
 * in the heap for as long as the script lives (to compile its functions lazily), one byte per character when every
 * character is Latin-1 and two bytes otherwise: a single "§" or "→" in a comment or a message doubled the memory
 * each service holds for its bundle (the API's 0.8 MB bundle took 1.5 MiB). Escapes are replaced through webpack's
 * ReplaceSource, so the source map still points every position at its TypeScript. (docs/performance.md,
 * eighteenth round.)
 */
class AsciiOnlyPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE }, (assets) => {
        for (const [file, asset] of Object.entries(assets)) {
          if (!/\.[cm]?js$/.test(file)) continue;
          const text = asset.source().toString();
          const escaped = new sources.ReplaceSource(asset);
          for (const match of text.matchAll(NON_ASCII)) {
            // A character escaped already ("\\§", the same "§") loses its backslash, which would escape the new one.
            const escapedBefore = backslashesBefore(text, match.index) % 2 === 1;
            escaped.replace(match.index - (escapedBefore ? 1 : 0), match.index, `\\u${match[0].charCodeAt(0).toString(16).padStart(4, '0')}`);
          }
          if (escaped.getReplacements().length > 0) compilation.updateAsset(file, escaped);
        }
      });
    });
  }
}

function backslashesBefore(text, index) {
  let count = 0;
  while (index - count > 0 && text.charCodeAt(index - count - 1) === 0x5c) count++;
  return count;
}

module.exports = { AsciiOnlyPlugin };
