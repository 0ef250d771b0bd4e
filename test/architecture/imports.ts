/**
 * Every module specifier a source file names — `import … from`, `export … from`, `import type`,
 * `import('…')` with a literal — as TypeScript's own parser lists them (a SourceFile's `imports`),
 * not a regular expression that a comment, a string or a template would fool. TypeScript 7 parses
 * in its native binary; `typescript/unstable/sync` is its API for reading that parse from Node.
 * The API is marked unstable: package.json pins typescript exactly, and the layer test checks
 * that the parse saw every file and a known import so that an API change fails rather than passes.
 */
import { relative, resolve } from 'node:path';
import { isStringLiteralLikeNode } from 'typescript/unstable/ast/is';
import { API } from 'typescript/unstable/sync';

export interface ImportSite {
  /** the importing file, relative to the repository root */
  file: string;
  /** 1-based line of the specifier */
  line: number;
  /** the specifier as written */
  specifier: string;
}

/** Every file of `tsconfig.json` (at `root`) under one of the folders `under`, and its imports. */
export function importSites(
  root: string,
  under: readonly string[],
): { files: string[]; sites: ImportSite[] } {
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [resolve(root, 'tsconfig.json')] });
    const [project] = snapshot.getProjects();
    if (!project) throw new Error(`no TypeScript project at ${root}/tsconfig.json`);
    const files: string[] = [];
    const sites: ImportSite[] = [];
    for (const name of project.program.getSourceFileNames()) {
      const file = relative(root, name);
      if (!under.some((dir) => file.startsWith(`${dir}/`))) continue;
      const source = project.program.getSourceFile(name);
      if (!source) throw new Error(`TypeScript lists ${file} but does not parse it`);
      files.push(file);
      for (const node of source.imports) {
        if (!isStringLiteralLikeNode(node)) continue;
        const { line } = source.getLineAndCharacterOfPosition(node.end);
        sites.push({ file, line: line + 1, specifier: node.text });
      }
    }
    return { files, sites };
  } finally {
    api.close();
  }
}
