import { builtinModules } from 'node:module';
import { relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Every Node built-in an entry point reaches, by specifier and importer, kept out of the bundle. */
function nodeBuiltinRecorder(found: string[]): Plugin {
  return {
    name: 'record-node-builtins',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0]!;
        if (!args.path.startsWith('node:') && !builtinModules.includes(bare)) return undefined;
        found.push(`${args.path} (imported by ${relative(process.cwd(), args.importer)})`);
        return { path: args.path, external: true };
      });
    },
  };
}

async function bundleForBrowser(entryPoint: string) {
  const nodeImports: string[] = [];
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [nodeBuiltinRecorder(nodeImports)],
  });
  return { nodeImports, inputs: Object.keys(result.metafile.inputs), code: result.outputFiles[0]!.text };
}

describe('entry points for the browser and fetch runtimes', () => {
  it('./browser bundles for the browser with the service and msw, and reaches no node:* module', async () => {
    const { nodeImports, inputs, code } = await bundleForBrowser('src/browser.ts');
    expect(nodeImports).toEqual([]);
    expect(inputs).toContain('src/core/service.ts');
    expect(inputs.some((input) => input.includes('node_modules/msw/lib/browser/'))).toBe(true);
    expect(code).toContain('startMockWorker');
  });

  it('./fetch reaches neither node:* nor msw', async () => {
    const { nodeImports, inputs } = await bundleForBrowser('src/fetch.ts');
    expect(nodeImports).toEqual([]);
    expect(inputs.filter((input) => input.includes('node_modules/msw/'))).toEqual([]);
  });

  it('the recorder notices a node:* import (the main entry point has the node:http host)', async () => {
    const { nodeImports } = await bundleForBrowser('src/index.ts');
    expect(nodeImports).toContain('node:http (imported by src/hosts/node-http.ts)');
  });
});
