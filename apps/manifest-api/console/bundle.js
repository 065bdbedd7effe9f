// Builds the web console for the manifest-api bundle: esbuild turns console/src (TypeScript, plain DOM) and
// console/styles into console.js and console.css, and everything lands in console/ beside main.js, where
// main.ts serves it at /console/. Used by webpack.config.js, so `nx build manifest-api` produces it.
const { build, formatMessages } = require('esbuild');
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const ROOT = __dirname;
const OUT_DIR = 'console';
const NAME = 'ConsoleBundlePlugin';

/** The bundled files as { name, contents } plus every source file esbuild read (for watch mode). */
async function bundleConsole({ minify }) {
  const outdir = resolve(ROOT, '.out');
  const result = await build({
    entryPoints: [
      { in: join(ROOT, 'src/main.ts'), out: 'console' },
      { in: join(ROOT, 'styles/console.css'), out: 'console' },
    ],
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    minify,
    sourcemap: 'linked',
    legalComments: 'none',
    // Files of public/ that the stylesheet refers to; they are copied beside it.
    external: ['*.svg'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const files = result.outputFiles.map((f) => ({ name: relative(outdir, f.path), contents: Buffer.from(f.contents) }));
  const publicDir = join(ROOT, 'public');
  for (const name of readdirSync(publicDir)) files.push({ name, contents: readFileSync(join(publicDir, name)) });
  const inputs = Object.keys(result.metafile.inputs).map((p) => resolve(process.cwd(), p));
  return { files, inputs: [...inputs, publicDir] };
}

/** Adds the console's files to the webpack compilation as assets, so output cleaning and watch mode treat them like the rest. */
class ConsoleBundlePlugin {
  apply(compiler) {
    const { Compilation, WebpackError, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tapPromise({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        try {
          const { files, inputs } = await bundleConsole({ minify: process.env.NODE_ENV === 'production' });
          for (const { name, contents } of files) compilation.emitAsset(`${OUT_DIR}/${name}`, new sources.RawSource(contents));
          for (const input of inputs) (input === join(ROOT, 'public') ? compilation.contextDependencies : compilation.fileDependencies).add(input);
        } catch (err) {
          const messages = err && Array.isArray(err.errors) ? await formatMessages(err.errors, { kind: 'error' }) : [String(err)];
          for (const message of messages) compilation.errors.push(new WebpackError(`web console: ${message}`));
        }
      });
    });
  }
}

module.exports = { ConsoleBundlePlugin, bundleConsole };
