#!/usr/bin/env python3
"""tools/callcycles/check.py: file-level call cycles among C sources.

    tools/callcycles/check.py DIR [DIR ...]

Reads every .c file in the folders given, finds the functions each defines
(a definition: a line at column 0 naming a function, with a body, not a
declaration ending in ';'), and the other files' functions each calls (an
identifier followed by '(' outside comments and strings). File A depends on
file B when A calls a function B defines. Prints the dependency graph and
exits 1 if it has a cycle (printing one), 0 if not. A static function of
the same name in two files is counted for each file alone. Textual, not a
compiler: macros that call functions are not expanded (the calls inside a
macro body in a header are not seen; docs/internals/context.md says which
files may call which).
Example: tools/callcycles/check.py lib/tween/src/context
"""
import os
import re
import sys

CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', '_Static_assert', 'do'}


def strip(text):
    """Comments, strings and character constants blanked (lines kept)."""
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", text)


def definitions(text):
    """The non-static functions a file defines, and its static ones."""
    public, private = set(), set()
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if not line or line[0] in ' \t#}{' or line.rstrip().endswith(';'):
            continue
        m = re.match(r'^([A-Za-z_][\w\s\*]*?)\b([A-Za-z_]\w*)\s*\(', line)
        if not m or m.group(2) in KEYWORDS:
            continue
        # A definition has its body's '{' before the next ';' (its parameters may wrap).
        rest = '\n'.join(lines[i:i + 12])
        brace, semi = rest.find('{'), rest.find(';')
        if brace < 0 or (0 <= semi < brace):
            continue
        (private if re.match(r'^\s*static\b', m.group(1)) else public).add(m.group(2))
    return public, private


def main(dirs):
    files = {}
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith('.c'):
                with open(os.path.join(d, name), encoding='utf-8') as f:
                    files[name] = strip(f.read())
    owner, local = {}, {}
    for name, text in files.items():
        public, private = definitions(text)
        local[name] = private
        for fn in public:
            owner.setdefault(fn, name)
    deps = {name: set() for name in files}
    for name, text in files.items():
        for fn in CALL.findall(text):
            if fn in local[name]:
                continue
            target = owner.get(fn)
            if target is not None and target != name:
                deps[name].add(target)
    for name in sorted(deps):
        print(f'{name}: {" ".join(sorted(deps[name])) or "(calls none)"}')
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(deps[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(deps):
        if n not in state:
            cycle = visit(n)
            if cycle:
                print('cycle: ' + ' -> '.join(cycle))
                return 1
    print('no file-level call cycles')
    return 0


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
