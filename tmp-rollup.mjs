import { rollup } from 'rollup';
import { builtinModules } from 'node:module';
const input = process.argv[2], out = process.argv[3];
const BUILTIN = '\0builtin:';
const builtins = { name: 'builtins', resolveId(id) { const bare = id.replace(/^node:/, ''); if (id.startsWith('node:') || builtinModules.includes(bare)) return BUILTIN + 'node:' + bare; return null; },
  load(id) { if (!id.startsWith(BUILTIN)) return null; return { code: `export default process.getBuiltinModule(${JSON.stringify(id.slice(BUILTIN.length))});`, syntheticNamedExports: true }; } };
const bundle = await rollup({ input, treeshake: false, preserveEntrySignatures: 'allow-extension', plugins: [builtins], external: (id) => id === 'better-sqlite3' || id === 'pdfkit', onwarn: (w) => { if (w.code !== 'CIRCULAR_DEPENDENCY') console.error(w.code, w.message.slice(0,200)); } });
await bundle.write({ dir: out, format: 'esm', chunkFileNames: 'chunk-[hash].js', entryFileNames: '[name].js' });
