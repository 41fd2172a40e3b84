#!/usr/bin/env python3
"""Holds the code to the sizes a reader can take in at once (issue 42):

- no function (func, init, subscript, closure-free accessor) whose body is over 60 lines;
- no type with over 40 methods, counting the `func`s of its declaration and of all its
  extensions in every file (a type spread over 36 files is still one type to learn).

Run by scripts/test.sh, so by CI. Exit 1 with one line per finding, file:line first.

It reads Swift with comments and string literals blanked out and follows braces; it does not
parse Swift. That is enough for this code base's style (swift-format, one declaration per
line); a construct it cannot follow shows up as a finding to read, not as a silent pass.
"""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
MAX_FUNCTION_LINES = 60
MAX_TYPE_METHODS = 40

TYPE_DECL = re.compile(
    r"\b(?:struct|class|enum|actor|extension|protocol)\s+([A-Za-z_][A-Za-z0-9_.]*)")
FUNC_DECL = re.compile(r"(?<![.\w])(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*[(<])")


def blank(text: str) -> str:
    """The text with comments and string literals (contents) replaced by spaces, line breaks
    kept, so offsets and line numbers stay those of the file."""
    out = []
    i, n = 0, len(text)
    depth_block = 0
    while i < n:
        c = text[i]
        if text.startswith("//", i) and depth_block == 0:
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth_block += 1
            out.append("  ")
            i += 2
        elif depth_block and text.startswith("*/", i):
            depth_block -= 1
            out.append("  ")
            i += 2
        elif depth_block:
            out.append("\n" if c == "\n" else " ")
            i += 1
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                if text[j] == "\\":
                    # An interpolation may hold quotes of its own: skip to its closing paren.
                    if j + 1 < n and text[j + 1] == "(":
                        level, j = 1, j + 2
                        while j < n and level:
                            level += {"(": 1, ")": -1}.get(text[j], 0)
                            j += 1
                        continue
                    j += 1
                j += 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def matching_brace(text: str, open_at: int) -> int:
    level = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            level += 1
        elif text[j] == "}":
            level -= 1
            if level == 0:
                return j
    return len(text) - 1


def scan(path: Path, methods: dict[str, list[str]], findings: list[str]) -> None:
    text = blank(path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT)
    # Each type body as (start, end, name): the innermost one holding a func owns it.
    bodies: list[tuple[int, int, str]] = []
    for m in TYPE_DECL.finditer(text):
        brace = text.find("{", m.end())
        if brace < 0:
            continue
        between = text[m.end():brace]
        if ";" in between or "\n\n" in between:
            continue
        name = m.group(1).split(".")[-1]
        bodies.append((brace, matching_brace(text, brace), name))
    for m in FUNC_DECL.finditer(text):
        start = m.start()
        owner = None
        for b_start, b_end, name in bodies:
            if b_start < start < b_end and (owner is None or b_start > owner[0]):
                owner = (b_start, b_end, name)
        # The body: the first `{` after the signature, unless a line ends the declaration first
        # (a protocol requirement).
        j, level = m.end(), 0
        body = -1
        while j < len(text):
            ch = text[j]
            if ch in "([":
                level += 1
            elif ch in ")]":
                level -= 1
            elif ch == "{" and level <= 0:
                body = j
                break
            elif ch == "}" and level <= 0:
                break
            j += 1
        if owner and m.group(0).startswith("func"):
            methods[owner[2]].append(f"{rel}:{line_of(text, start)}")
        if body < 0 or (owner and body > owner[1]):
            continue
        end = matching_brace(text, body)
        lines = line_of(text, end) - line_of(text, body) - 1
        if lines > MAX_FUNCTION_LINES:
            findings.append(
                f"{rel}:{line_of(text, start)}: {m.group(0).strip('(< ')} has a body of {lines} "
                f"lines (at most {MAX_FUNCTION_LINES}): split it into named steps")


def main() -> int:
    methods: dict[str, list[str]] = defaultdict(list)
    findings: list[str] = []
    for path in sorted(SOURCES.rglob("*.swift")):
        scan(path, methods, findings)
    for name, places in sorted(methods.items()):
        if len(places) > MAX_TYPE_METHODS:
            files = sorted({p.rsplit(":", 1)[0] for p in places})
            findings.append(
                f"{places[0]}: {name} has {len(places)} methods in {len(files)} files (at most "
                f"{MAX_TYPE_METHODS}): group them into types of their own")
    for finding in findings:
        print(f"check-code-size: {finding}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
