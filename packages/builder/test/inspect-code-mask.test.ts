/**
 * code-mask.ts: comments (and, on request, string contents) blanked by one lexer for C#, Java/Kotlin,
 * Go, Ruby, PHP and TS/JS, with offsets and line numbers kept. Each row: family, options, input, masked text.
 */
import { describe, expect, it } from 'vitest';
import { codeFamilyOf, csharpStringEnd, maskCode, type CodeFamily } from '../src/inspect/patterns/code-mask.js';

type Row = readonly [name: string, family: CodeFamily, strings: boolean, input: string, masked: string];

const ROWS: readonly Row[] = [
  // C# (strings and char literals blanked by its scanner)
  ['cs: line comment, braces in a string', 'csharp', true, 'a("{x}"); // b(', 'a("   ");      '],
  ['cs: // inside a string is no comment', 'csharp', true, 'u = "http://x"; // c', 'u = "        ";     '],
  ["cs: ' in a comment opens no char", 'csharp', true, "// don't\nf('{');", "        \nf(' ');"],
  ['cs: escaped quote', 'csharp', true, 'f("a\\"b{", x)', 'f("     ", x)'],
  ['cs: block comments do not nest', 'csharp', true, 'a /* b /* c */ d */ e', 'a              d */ e'],
  ['cs: verbatim string, doubled quote, backslash and line break', 'csharp', true, 'p = @"C:\\x"" {\n}"; //', 'p = @"        \n ";   '],
  ['cs: interpolated string with a string in a hole', 'csharp', true, '$"{f("}")}" + x', '$"        " + x'],
  ['cs: raw string literal', 'csharp', true, 'x = """a "b" {c}""";', 'x = """         """;'],
  ['cs: char literals, escaped char', 'csharp', true, "c == '}' || c == '\\''", "c == ' ' || c == '  '"],
  ['cs: comments only', 'csharp', false, 'f("//x"); /* y */ \'/\'', 'f("//x");         \'/\''],
  ['cs: # is a directive, not a comment', 'csharp', true, '#region a\nx', '#region a\nx'],
  ['cs: unclosed block comment runs to the end', 'csharp', true, 'a /* b\nc', 'a     \n '],
  // Java / Kotlin
  ['jvm: comments blanked, strings kept by default', 'jvm', false, 'a /* class X */ b // c\nd', 'a               b     \nd'],
  ['jvm: // inside a string', 'jvm', false, 'get("http://x") // y', 'get("http://x")     '],
  ["jvm: ' in a comment opens no char", 'jvm', true, "// it's\nc = '{';", "       \nc = ' ';"],
  ['jvm: strings blanked on request, escapes', 'jvm', true, 'f("a\\"{", \'\\\'\')', 'f("    ", \'  \')'],
  ['jvm: text block with quotes and braces', 'jvm', true, 's = """\n  {"a": 1} // x\n  """;', 's = """\n               \n  """;'],
  ['jvm: text block kept without strings', 'jvm', false, 's = """ // x """; // y', 's = """ // x """;     '],
  ['jvm: block comments do not nest', 'jvm', false, '/* a /* b */ c */', '             c */'],
  ['jvm: unclosed string ends at its line', 'jvm', true, 'f("abc\n// c', 'f("   \n    '],
  // Go
  ['go: braces in strings and runes', 'go', true, 'r.Route("/{id}", f) // {', 'r.Route("     ", f)     '],
  ["go: ' in a comment", 'go', true, "// don't\nx := '}'", "        \nx := ' '"],
  ['go: raw string spans lines, no escapes', 'go', true, 'q := `a\\` + "b"', 'q := `  ` + " "'],
  ['go: raw multi-line string with // and quotes', 'go', true, 'q := `{\n"//"`', 'q := ` \n    `'],
  ['go: escaped quote', 'go', true, 'p := "a\\"}" // x', 'p := "    "     '],
  ['go: block comments do not nest', 'go', true, '/* /* */ }', '         }'],
  // Ruby (comments only by its scanners)
  ['rb: # comment', 'ruby', false, 'x = 1 # Stripe::Charge.create(amount: 1)', 'x = 1                                   '],
  ['rb: # inside a string', 'ruby', false, "a = 'http://x#y' # c", "a = 'http://x#y'    "],
  ['rb: interpolation is code, its # opens no comment', 'ruby', false, 'p "#{a # b}" # c', 'p "#{a # b}"    '],
  ['rb: single quotes do not interpolate', 'ruby', false, "p '#{a' # c", "p '#{a'    "],
  ['rb: escaped quote', 'ruby', false, 'p "a\\"#b" # c', 'p "a\\"#b"    '],
  ['rb: =begin/=end', 'ruby', false, "a\n=begin\nx 'y\n=end z\nb # c", 'a\n      \n    \n      \nb    '],
  ["rb: heredoc body is a string, ' and # in it kept", 'ruby', false, "sql = <<~SQL # c\n  don't # keep\nSQL\nb # d", "sql = <<~SQL    \n  don't # keep\nSQL\nb    "],
  ['rb: strings blanked on request, heredoc body too', 'ruby', true, 'a = "x#{y}" + <<-T\n  body\n  T\n', 'a = "     " + <<-T\n      \n  T\n'],
  ['rb: carriage returns kept', 'ruby', false, 'a # b\r\nc', 'a    \r\nc'],
  // PHP
  ['php: //, # and /* */', 'php', false, "f(); // a\ng(); # b\n/* c\nd */ h();", 'f();     \ng();    \n    \n     h();'],
  ['php: #[ is an attribute', 'php', false, "#[Route('/x')]\nf(); # c", "#[Route('/x')]\nf();    "],
  ['php: // inside a string', 'php', false, "$u = 'http://x'; // y", "$u = 'http://x';     "],
  ["php: ' in a comment", 'php', false, "// don't\n$a = 'b';", "        \n$a = 'b';"],
  ['php: escaped quotes, multi-line string', 'php', false, "$a = 'it\\'s // x\n#y'; # z", "$a = 'it\\'s // x\n#y';    "],
  ['php: heredoc body with a //', 'php', false, "$s = <<<EOT\nhttp://x # y\nEOT;\n// z", "$s = <<<EOT\nhttp://x # y\nEOT;\n    "],
  ['php: block comments do not nest', 'php', false, '/* a /* b */ c(); */', '             c(); */'],
  ['php: strings blanked on request', 'php', true, '$a = "b{$c}" . \'d\';', '$a = "     " . \' \';'],
  // TypeScript / JavaScript (the duplicate-cost reader blanks comments only)
  ['js: line and block comments', 'js', false, 'a(); // db.save(x)\n/* repo.delete() */ b();', `a();${' '.repeat(14)}\n${' '.repeat(19)} b();`],
  ['js: // inside strings of each quote', 'js', false, "f('http://x', \"//y\", `//z`); // c", "f('http://x', \"//y\", `//z`);     "],
  ['js: template literal across lines with a hole', 'js', false, 'q = `a\n${b} // not\n`; // c', 'q = `a\n${b} // not\n`;     '],
  ['js: strings blanked on request, escapes', 'js', true, "f('a\\'b', `c`)", "f('    ', ` `)"],
];

describe('maskCode', () => {
  it.each(ROWS)('%s', (_name, family, strings, input, masked) => {
    const out = maskCode(input, family, { strings });
    expect(out).toBe(masked);
    expect(out.length).toBe(input.length);
    expect(out.split('\n').length).toBe(input.split('\n').length);
  });

  it('maps extensions to families; other languages have none', () => {
    expect(['A.cs', 'A.java', 'A.kt', 'b.kts', 'main.go', 'x.rb', 'X.PHP', 'x.py', 'x.ts', 'x.mjs', 'x.swift'].map(codeFamilyOf))
      .toEqual(['csharp', 'jvm', 'jvm', 'jvm', 'go', 'ruby', 'php', undefined, 'js', 'js', undefined]);
  });

  it('csharpStringEnd: past the closing quote of each C# string form', () => {
    expect(csharpStringEnd('x = @"a\\";', 5)).toBe(9);
    expect(csharpStringEnd('"a\\"b" + c', 0)).toBe(6);
    expect(csharpStringEnd('$"{"}"}" + c', 1)).toBe(8);
    expect(csharpStringEnd('"""a"b"""', 0)).toBe(9);
    expect(csharpStringEnd('"abc\nd', 0)).toBe(4);
  });
});
