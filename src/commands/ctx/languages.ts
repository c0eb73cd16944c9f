/**
 * Symbol rules per language: line-anchored regular expressions (multiline, so `^` is a line start)
 * whose named group `n` is the symbol name. `k` (when present) names the kind; `t` is a prefix
 * joined to the name with a dot (Terraform `resource "type" "name"`). `indented` gives the kind
 * used when the match starts with whitespace (Python and Rust `fn` inside a body are methods).
 *
 * Why regexes and not tree-sitter: bench/symbols.mjs measures both targets of issue 15 on these
 * rules. Measured 2026-12-04 (README): agreement with Universal Ctags on the fixture corpus 94.3 %
 * (TypeScript) and 100 % (JavaScript, Python, Go, Rust), 94-98 % on real TS/JS in node_modules,
 * target >= 90 %; in-process time over node_modules 0.43-0.76x `ctags -R`, target <= 1.5x. Regexes
 * meet both with no grammar files to ship, load or keep in step, and cover thirty-odd languages
 * where tree-sitter would need one wasm grammar (and one query file) each.
 */

export interface Rule {
  kind: string;
  re: string;
  flags?: string;
  indented?: string;
  /** Drop matches whose name is a control-flow word (`if (x) {` has a method's shape). */
  guard?: boolean;
}

export interface Language {
  rules: readonly Rule[];
  /** A hand-written scanner after the rules: JSON keys, Markdown headings, Go type blocks, JS assigned functions. */
  scanner?: 'json' | 'markdown' | 'go-type-block' | 'js-assigned';
  /** Keep only the first of consecutive symbols with the same name and kind (Erlang clauses). */
  collapseRepeats?: boolean;
}

const ID = '[A-Za-z_$][\\w$]*';
const JS_EXPORT = '(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?';
const JS_METHOD_MODIFIERS = '(?:(?:public|private|protected|static|async|override|readonly|abstract|declare|accessor)\\s+)*';
// A parameter list with one level of nested parentheses; it may span lines.
const JS_PARAMS = '\\((?:[^()]|\\([^()]*\\))*\\)';
const JS_PARAMS_LINE = '\\((?:[^()\\n]|\\([^()\\n]*\\))*\\)';

const JS_RULES: Rule[] = [
  { kind: 'function', re: `^[ \\t]*${JS_EXPORT}(?:async\\s+)?function\\b\\s*\\*?\\s*(?<n>${ID})` },
  { kind: 'class', re: `^[ \\t]*${JS_EXPORT}(?:abstract\\s+)?class\\s+(?<n>${ID})` },
  {
    kind: 'function',
    re: `^[ \\t]*(?:export\\s+)?(?:const|let|var)\\s+(?<n>${ID})\\s*(?::[^=\\n]+)?=\\s*(?:async\\s+)?(?:function\\b|(?:${JS_PARAMS}|${ID})\\s*(?::[^=\\n]+)?=>)`,
  },
  {
    kind: 'class',
    re: `^[ \\t]*(?:export\\s+)?(?:const|let|var)\\s+(?<n>${ID})\\s*=\\s*class\\b`,
  },
  {
    kind: 'method',
    guard: true,
    re: `^[ \\t]+${JS_METHOD_MODIFIERS}(?:(?:get|set)\\s+)?(?:async\\s+)?\\*?\\s*(?<n>#?${ID}|\\[[\\w$.]+\\])\\s*(?:<[^>\\n]*>)?\\s*${JS_PARAMS}\\s*(?::\\s*[^{;=\\n]+?)?\\s*\\{`,
  },
  { kind: 'method', re: `^[ \\t]*(?:${ID}\\.)+prototype\\.(?<n>${ID})\\s*=\\s*(?:async\\s+)?function\\b` },
  // Named function and class expressions anywhere on a line (callbacks, `module.exports = class X {`).
  { kind: 'function', re: `(?<![\\w$.])function\\b\\s*\\*?\\s*(?<n>${ID})\\s*\\(` },
  { kind: 'class', re: `(?<![\\w$.])class\\s+(?<n>${ID})\\s*(?:extends\\b[^{\\n]*)?\\{` },
  // Class members right after `{`, `}` or `;` on one line (bundled and minified code).
  {
    kind: 'method',
    guard: true,
    re: `(?<=[{};])[ \\t]*(?:(?:static|async|get|set)\\s+)*\\*?(?<n>#?${ID})${JS_PARAMS_LINE}\\{`,
  },
];

const TS_RULES: Rule[] = [
  ...JS_RULES,
  { kind: 'interface', re: `^[ \\t]*${JS_EXPORT}interface\\s+(?<n>${ID})` },
  { kind: 'type', re: `^[ \\t]*${JS_EXPORT}type\\s+(?<n>${ID})\\s*[<=]` },
  { kind: 'enum', re: `^[ \\t]*${JS_EXPORT}(?:const\\s+)?enum\\s+(?<n>${ID})` },
  { kind: 'module', re: `^[ \\t]*${JS_EXPORT}(?:namespace|module)\\s+(?<n>${ID}(?:\\.${ID})*)` },
  // Overloads, abstract and ambient method signatures end with `;` instead of a body.
  {
    kind: 'method',
    guard: true,
    re: `^[ \\t]+(?:(?:public|private|protected|static|async|override|abstract)\\s+)+(?<n>#?${ID})\\s*(?:<[^>\\n]*>)?\\s*${JS_PARAMS_LINE}\\s*(?::[^;\\n]+)?;`,
  },
  // Signatures with a return type (`format(): T;`): a call never has `): T;`.
  {
    kind: 'method',
    guard: true,
    re: `^[ \\t]+(?<n>#?${ID})\\??\\s*(?:<[^>\\n]*>)?\\s*${JS_PARAMS_LINE}\\s*:\\s*[^;\\n]+;`,
  },
];

const C_ID = '[A-Za-z_]\\w*';
// Rust visibility: `pub`, `pub(crate)`, `pub(in path)`.
const RUST_PUB = '(?:pub(?:\\s*\\([^)\\n]*\\))?\\s+)?';

const LANGUAGES: Record<string, Language> = {
  // The scanner adds functions stored by `name: function`, `x = function`, `a.b = function` anywhere
  // on a line: a regex that had to find the name first cost ten times more on minified bundles.
  javascript: { rules: JS_RULES, scanner: 'js-assigned' },
  typescript: { rules: TS_RULES, scanner: 'js-assigned' },
  python: {
    rules: [
      { kind: 'class', re: '^[ \\t]*class\\s+(?<n>\\w+)' },
      { kind: 'function', indented: 'method', re: '^[ \\t]*(?:async[ \\t]+)?def\\s+(?<n>\\w+)' },
    ],
  },
  go: {
    scanner: 'go-type-block',
    rules: [
      { kind: 'function', re: '^func\\s+(?<n>\\w+)' },
      { kind: 'method', re: '^func\\s*\\([^)]*\\)\\s*(?<n>\\w+)' },
      { kind: 'struct', re: '^type\\s+(?<n>\\w+)(?:\\[[^\\]\\n]*\\])?\\s+struct\\b' },
      { kind: 'interface', re: '^type\\s+(?<n>\\w+)(?:\\[[^\\]\\n]*\\])?\\s+interface\\b' },
      { kind: 'type', re: '^type\\s+(?<n>\\w+)' },
    ],
  },
  rust: {
    rules: [
      {
        kind: 'function',
        indented: 'method',
        re: `^[ \\t]*${RUST_PUB}(?:default\\s+)?(?:const\\s+)?(?:async\\s+)?(?:unsafe\\s+)?(?:extern\\s+(?:"[^"\\n]*"\\s+)?)?fn\\s+(?<n>\\w+)`,
      },
      { kind: 'struct', re: `^[ \\t]*${RUST_PUB}struct\\s+(?<n>\\w+)` },
      { kind: 'enum', re: `^[ \\t]*${RUST_PUB}enum\\s+(?<n>\\w+)` },
      { kind: 'union', re: `^[ \\t]*${RUST_PUB}union\\s+(?<n>\\w+)` },
      { kind: 'trait', re: `^[ \\t]*${RUST_PUB}(?:unsafe\\s+)?(?:auto\\s+)?trait\\s+(?<n>\\w+)` },
      { kind: 'type', re: `^[ \\t]*${RUST_PUB}type\\s+(?<n>\\w+)` },
      { kind: 'module', re: `^[ \\t]*${RUST_PUB}mod\\s+(?<n>\\w+)` },
      { kind: 'macro', re: '^[ \\t]*macro_rules!\\s*(?<n>\\w+)' },
      { kind: 'constant', re: `^[ \\t]*${RUST_PUB}(?:const|static)\\s+(?:mut\\s+)?(?<n>[A-Z_][A-Z0-9_]*)\\s*:` },
      { kind: 'impl', re: '^[ \\t]*(?:unsafe\\s+)?impl(?:\\s*<[^>\\n]*>)?\\s+(?:[\\w:<>, ]+?\\s+for\\s+)?(?<n>\\w+)' },
    ],
  },
  java: {
    rules: [
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*(?<k>class|interface|enum|record)\\s+(?<n>\\w+)',
      },
      {
        kind: 'method',
        guard: true,
        re: '^[ \\t]+(?:(?:public|private|protected|static|final|abstract|synchronized|native|default|strictfp)\\s+)+(?:<[^>\\n]+>\\s+)?(?:[\\w<>\\[\\],.?]{1,200}\\s+)?(?<n>\\w+)\\s*\\(',
      },
      {
        kind: 'method',
        guard: true,
        re: '^[ \\t]+(?!(?:return|throw|new|else|await|yield|case|goto)\\b)(?:[\\w<>\\[\\],.?]{1,200}\\s+)(?<n>\\w+)\\s*\\([^)\\n]*\\)\\s*(?:throws\\s+[\\w., ]+)?;',
      },
      { kind: 'package', re: '^package\\s+(?<n>[\\w.]+)' },
    ],
  },
  kotlin: {
    rules: [
      { kind: 'package', re: '^package\\s+(?<n>[\\w.]+)' },
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:public|private|protected|internal|open|abstract|sealed|data|enum|annotation|inner|value|final|expect|actual)\\s+)*(?<k>class|interface|object)\\s+(?<n>\\w+)',
      },
      { kind: 'function', re: '^[ \\t]*(?:(?:\\w+)\\s+)*fun\\s+(?:<[^>\\n]*>\\s*)?(?:[\\w.]+\\.)?(?<n>\\w+)\\s*\\(' },
      { kind: 'type', re: '^[ \\t]*(?:(?:public|private|internal)\\s+)?typealias\\s+(?<n>\\w+)' },
    ],
  },
  scala: {
    rules: [
      { kind: 'package', re: '^package\\s+(?<n>[\\w.]+)' },
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:private|protected|final|sealed|abstract|implicit|lazy|override|case|open)\\s+)*(?<k>class|trait|object|enum)\\s+(?<n>\\w+)',
      },
      { kind: 'method', re: '^[ \\t]*(?:(?:private|protected|final|override|implicit|inline)\\s+)*def\\s+(?<n>\\w+)' },
      { kind: 'type', re: '^[ \\t]*(?:(?:private|protected|opaque)\\s+)*type\\s+(?<n>\\w+)' },
    ],
  },
  csharp: {
    rules: [
      { kind: 'namespace', re: '^[ \\t]*namespace\\s+(?<n>[\\w.]+)' },
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|ref|unsafe|new|file)\\s+)*(?<k>class|struct|interface|enum|record)\\s+(?<n>\\w+)',
      },
      {
        kind: 'method',
        guard: true,
        re: '^[ \\t]+(?:(?:public|private|protected|internal|static|virtual|override|abstract|async|sealed|extern|new|unsafe|partial)\\s+)+(?:[\\w<>\\[\\],.?()]{1,200}\\s+)?(?<n>\\w+)\\s*(?:<[^>\\n]*>)?\\s*\\(',
      },
      {
        kind: 'method',
        guard: true,
        re: '^[ \\t]+(?!(?:return|throw|new|else|await|yield|case|goto)\\b)(?:[\\w<>\\[\\],.?]{1,200}\\s+)(?<n>\\w+)\\s*\\([^)\\n]*\\)\\s*;',
      },
    ],
  },
  php: {
    rules: [
      { kind: 'namespace', re: '^[ \\t]*namespace\\s+(?<n>[\\w\\\\]+)' },
      { kind: 'class', re: '^[ \\t]*(?:(?:abstract|final|readonly)\\s+)*(?<k>class|interface|trait|enum)\\s+(?<n>\\w+)' },
      {
        kind: 'function',
        indented: 'method',
        re: '^[ \\t]*(?:(?:public|private|protected|static|abstract|final)\\s+)*function\\s+&?(?<n>\\w+)',
      },
    ],
  },
  ruby: {
    rules: [
      { kind: 'class', re: '^[ \\t]*class\\s+(?<n>[A-Z][\\w:]*)' },
      { kind: 'module', re: '^[ \\t]*module\\s+(?<n>[A-Z][\\w:]*)' },
      { kind: 'method', re: '^[ \\t]*def\\s+(?:self\\.)?(?<n>[\\w]+[?!=]?|\\[\\]=?|[+\\-*/<=>%!~^&|]+)' },
    ],
  },
  rake: {
    rules: [
      { kind: 'class', re: '^[ \\t]*class\\s+(?<n>[A-Z][\\w:]*)' },
      { kind: 'module', re: '^[ \\t]*module\\s+(?<n>[A-Z][\\w:]*)' },
      { kind: 'method', re: '^[ \\t]*def\\s+(?:self\\.)?(?<n>\\w+[?!=]?)' },
      { kind: 'namespace', re: '^[ \\t]*namespace\\s+[:"\'](?<n>[\\w:-]+)' },
      { kind: 'target', re: '^[ \\t]*(?:multi)?task\\s+\\(?\\s*[:"\']?(?<n>\\w[\\w-]*)' },
    ],
  },
  elixir: {
    rules: [
      { kind: 'module', re: '^[ \\t]*(?<k>defmodule|defprotocol|defimpl)\\s+(?<n>[\\w.]+)' },
      { kind: 'function', re: '^[ \\t]*(?:def|defp|defguard|defguardp|defdelegate)\\s+(?<n>[\\w?!]+)' },
      { kind: 'macro', re: '^[ \\t]*(?:defmacro|defmacrop)\\s+(?<n>[\\w?!]+)' },
    ],
    collapseRepeats: true,
  },
  erlang: {
    rules: [
      { kind: 'module', re: '^-module\\(\\s*(?<n>\\w+)' },
      { kind: 'record', re: '^-record\\(\\s*(?<n>\\w+)' },
      { kind: 'type', re: '^-(?:type|opaque)\\s+(?<n>\\w+)' },
      { kind: 'macro', re: '^-define\\(\\s*(?<n>\\w+)' },
      { kind: 'function', re: "^(?<n>[a-z][\\w@]*|'[^'\\n]+')\\s*\\(.*->" },
    ],
    collapseRepeats: true,
  },
  swift: {
    rules: [
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:public|private|fileprivate|internal|open|final|indirect|@\\w+)\\s+)*(?<k>class|struct|enum|protocol|extension|actor)\\s+(?<n>\\w+)',
      },
      {
        kind: 'function',
        re: '^[ \\t]*(?:(?:public|private|fileprivate|internal|open|final|static|class|override|mutating|nonmutating|@\\w+)\\s+)*func\\s+(?<n>[\\w]+|[^\\s(]+)',
      },
      { kind: 'type', re: '^[ \\t]*(?:(?:public|private|fileprivate|internal)\\s+)?typealias\\s+(?<n>\\w+)' },
    ],
  },
  dart: {
    rules: [
      {
        kind: 'class',
        re: '^[ \\t]*(?:(?:abstract|base|final|interface|sealed)\\s+)*(?<k>class|mixin|enum|extension)\\s+(?<n>\\w+)',
      },
      { kind: 'type', re: '^[ \\t]*typedef\\s+(?<n>\\w+)' },
      {
        kind: 'function',
        indented: 'method',
        guard: true,
        re: '^[ \\t]*(?:(?:static|external|abstract)\\s+)*(?:[\\w<>?,\\[\\] ]+\\s+)?(?<n>(?!if\\b|for\\b|while\\b|switch\\b|catch\\b|return\\b)[a-z_]\\w*)\\s*\\([^;\\n]*\\)\\s*(?:async\\*?\\s*|sync\\*\\s*)?(?:\\{|=>)',
      },
    ],
  },
  c: {
    rules: [
      { kind: 'macro', re: '^[ \\t]*#[ \\t]*define\\s+(?<n>\\w+)' },
      { kind: 'namespace', re: '^[ \\t]*namespace\\s+(?<n>\\w+)' },
      {
        kind: 'struct',
        re: `^[ \\t]*(?:typedef\\s+)?(?<k>struct|union|enum|class)\\s+(?:\\w+\\s+)?(?<n>${C_ID})\\s*(?:final\\s*)?(?::[^;{\\n]*)?\\{?\\s*$`,
      },
      { kind: 'type', re: `^typedef\\s+[^;\\n(]*?\\b(?<n>${C_ID})\\s*;` },
      // The name after the body of a `typedef struct { … } name;`.
      { kind: 'type', re: `^\\}[ \\t]*(?<n>${C_ID})[ \\t]*;` },
      {
        kind: 'method',
        guard: true,
        re: `^[ \\t]+(?:(?:virtual|static|inline|explicit|constexpr)[ \\t]+)*(?:[\\w*&:<>,~]+[ \\t]+)+\\**&?(?<n>[A-Za-z_~]\\w*)\\s*\\([^;\\n]*\\)\\s*(?:const\\s*)?(?:noexcept\\s*)?(?:override\\s*)?(?:final\\s*)?\\{`,
      },
      {
        kind: 'function',
        guard: true,
        re: `^(?!\\s|#|return\\b|else\\b)(?:[\\w*&:<>,~]+[ \\t]+)+\\**&?(?<n>(?!if\\b|while\\b|for\\b|switch\\b)[A-Za-z_~][\\w:~]*)\\s*\\([^;\\n]*$`,
      },
    ],
  },
  zig: {
    rules: [
      { kind: 'function', re: '^[ \\t]*(?:pub\\s+)?(?:export\\s+|extern\\s+(?:"[^"\\n]*"\\s+)?|inline\\s+)?fn\\s+(?<n>\\w+)' },
      { kind: 'struct', re: '^[ \\t]*(?:pub\\s+)?const\\s+(?<n>\\w+)\\s*=\\s*(?:extern\\s+|packed\\s+)?(?:struct|enum|union|opaque)\\b' },
      { kind: 'test', re: '^[ \\t]*test\\s+"(?<n>[^"\\n]+)"' },
    ],
  },
  lua: {
    rules: [
      { kind: 'function', re: '^[ \\t]*(?:local\\s+)?function\\s+(?<n>[\\w.:]+)' },
      { kind: 'function', re: '^[ \\t]*(?:local\\s+)?(?<n>[\\w.]+)\\s*=\\s*function\\b' },
    ],
  },
  perl: {
    rules: [
      { kind: 'package', re: '^[ \\t]*package\\s+(?<n>[\\w:]+)' },
      { kind: 'function', re: '^[ \\t]*sub\\s+(?<n>\\w+)' },
    ],
  },
  r: { rules: [{ kind: 'function', re: '^[ \\t]*(?<n>[\\w.]+)\\s*(?:<-|=)\\s*function\\b' }] },
  julia: {
    rules: [
      { kind: 'module', re: '^[ \\t]*(?:bare)?module\\s+(?<n>\\w+)' },
      { kind: 'function', re: '^[ \\t]*(?<k>function|macro)\\s+(?<n>[\\w.!]+)' },
      { kind: 'struct', re: '^[ \\t]*(?:mutable\\s+)?struct\\s+(?<n>\\w+)' },
      { kind: 'type', re: '^[ \\t]*(?:abstract|primitive)\\s+type\\s+(?<n>\\w+)' },
      { kind: 'function', re: '^(?<n>[A-Za-z_][\\w!]*)\\([^)\\n]*\\)\\s*=[^=]' },
    ],
  },
  haskell: {
    rules: [
      { kind: 'module', re: '^module\\s+(?<n>[\\w.]+)' },
      { kind: 'type', re: '^(?<k>data|newtype|type)\\s+(?:family\\s+|instance\\s+)?(?<n>[A-Z]\\w*)' },
      { kind: 'class', re: '^class\\s+(?:[^=\\n]*=>\\s*)?(?<n>[A-Z]\\w*)' },
      { kind: 'function', re: "^(?<n>[a-z_][\\w']*)\\s*::" },
    ],
  },
  ocaml: {
    rules: [
      { kind: 'module', re: "^[ \\t]*module\\s+(?:type\\s+)?(?<n>[A-Z][\\w']*)" },
      { kind: 'type', re: "^[ \\t]*type\\s+(?:nonrec\\s+)?(?:(?:'\\w+|\\([^)\\n]*\\))\\s+)?(?<n>[a-z_][\\w']*)" },
      { kind: 'function', re: "^(?:let|and)\\s+(?:rec\\s+)?(?<n>[a-z_][\\w']*)" },
      { kind: 'class', re: "^[ \\t]*class\\s+(?:virtual\\s+)?(?<n>[a-z_][\\w']*)" },
      { kind: 'exception', re: "^[ \\t]*exception\\s+(?<n>[A-Z][\\w']*)" },
    ],
  },
  terraform: {
    rules: [
      { kind: 'resource', re: '^(?<k>resource|data)\\s+"(?<t>[^"\\n]+)"\\s+"(?<n>[^"\\n]+)"' },
      { kind: 'variable', re: '^(?<k>variable|output|module|provider)\\s+"(?<n>[^"\\n]+)"' },
      { kind: 'block', re: '^(?<n>(?<k>locals|terraform))\\s*\\{' },
    ],
  },
  yaml: { rules: [{ kind: 'key', re: '^(?<n>[A-Za-z0-9_"\'][^:#\\n]*?)[ \\t]*:(?=[ \\t]|$)' }] },
  toml: { rules: [{ kind: 'section', re: '^[ \\t]*\\[\\[?[ \\t]*(?<n>[^\\]\\n]+?)[ \\t]*\\]\\]?' }] },
  json: { rules: [], scanner: 'json' },
  markdown: { rules: [], scanner: 'markdown' },
  shell: {
    rules: [
      { kind: 'function', re: '^[ \\t]*function\\s+(?<n>[\\w.:-]+)' },
      { kind: 'function', re: '^[ \\t]*(?<n>[\\w.:-]+)\\s*\\(\\s*\\)' },
    ],
  },
  powershell: {
    rules: [
      { kind: 'function', re: '^[ \\t]*(?:function|filter|workflow)\\s+(?<n>[\\w:-]+)', flags: 'i' },
      { kind: 'class', re: '^[ \\t]*(?<k>class|enum)\\s+(?<n>\\w+)', flags: 'i' },
    ],
  },
  dockerfile: { rules: [{ kind: 'stage', re: '^[ \\t]*FROM\\s+(?:--\\S+\\s+)*\\S+\\s+AS\\s+(?<n>\\S+)', flags: 'i' }] },
  make: { rules: [{ kind: 'target', re: '^(?<n>[A-Za-z0-9_$(){}%/][\\w.$(){}%/-]*)[ \\t]*::?(?![=:])' }] },
  just: { rules: [{ kind: 'recipe', re: '^@?(?<n>[A-Za-z_][\\w-]*)(?:[ \\t]+[^:=\\n]*)?[ \\t]*:(?![=:])' }] },
};

// File name extensions per language, space-separated.
const EXTENSIONS: Record<string, string> = {
  javascript: 'js mjs cjs jsx vue svelte',
  typescript: 'ts mts cts tsx',
  python: 'py pyi',
  go: 'go',
  rust: 'rs',
  java: 'java',
  kotlin: 'kt kts',
  scala: 'scala sc',
  csharp: 'cs',
  php: 'php',
  ruby: 'rb gemspec',
  rake: 'rake',
  elixir: 'ex exs',
  erlang: 'erl hrl',
  swift: 'swift',
  dart: 'dart',
  c: 'c h cc cpp cxx hpp hh hxx',
  zig: 'zig',
  lua: 'lua',
  perl: 'pl pm',
  r: 'r',
  julia: 'jl',
  haskell: 'hs',
  ocaml: 'ml mli',
  terraform: 'tf tofu hcl',
  yaml: 'yml yaml',
  toml: 'toml',
  json: 'json',
  markdown: 'md markdown mdx',
  shell: 'sh bash zsh',
  powershell: 'ps1 psm1',
  make: 'mk',
  just: 'just',
  dockerfile: 'dockerfile',
};
const BY_EXTENSION = new Map(Object.entries(EXTENSIONS).flatMap(([id, list]) => list.split(' ').map((ext) => [ext, id] as const)));

const BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'make',
  gnumakefile: 'make',
  justfile: 'just',
  '.justfile': 'just',
  rakefile: 'rake',
  gemfile: 'ruby',
};

/** The language of a file from its name, or undefined when none of the rules apply. */
export function languageOf(path: string): Language | undefined {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1).toLowerCase();
  const named = BY_NAME[base];
  if (named) return LANGUAGES[named];
  if (base.startsWith('dockerfile.') || base.endsWith('.dockerfile')) return LANGUAGES.dockerfile;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = BY_EXTENSION.get(base.slice(dot + 1));
  return id === undefined ? undefined : LANGUAGES[id];
}
