#!/usr/bin/env python3
"""Every test suite runs its cases on threads of their own (`.onItsOwnThread`), off Swift's
cooperative pool. Exits 1 naming each suite that does not.

Why: the loopback stubs (ProviderStub, PingReceiver) serve on that pool whatever executor they are
started on: FlyingFox's `HTTPServer.run()` starts its server in an unstructured `Task`, which no
task executor preference reaches. The pool has one thread per core, so two tests that compute for
a minute on it (phone parsing, say) leave a stub unanswered for that minute; CI of 1897f43 lost
PipelinePingTests' pings that way (docs/RELIABILITY.md, "What the suite costs").

A suite declared at the top of a file must name the trait in its `@Suite(...)`; one nested in
`extension X` inherits it from X, which must then be a suite that names it.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAIT = ".onItsOwnThread"


def attribute(text: str, start: int) -> str:
    """The `@Suite` attribute starting at `start`, with its balanced parentheses if it has any."""
    end = start + len("@Suite")
    if end < len(text) and text[end] == "(":
        depth = 0
        for index in range(end, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                return text[start:index + 1]
    return text[start:end]


def suites(text: str) -> list[tuple[int, bool, str, bool]]:
    """(line, top level, type name or enclosing extension, names the trait) of each `@Suite`."""
    found = []
    for match in re.finditer(r"^( *)@Suite\b", text, flags=re.M):
        line = text.count("\n", 0, match.start()) + 1
        attr = attribute(text, match.start(1) + len(match.group(1)))
        after = text[match.start() + len(match.group(1)) + len(attr):]
        declared = re.match(r"\s*(?:(?:final|package|public|private|fileprivate)\s+)*(?:struct|class|enum|actor)\s+(\w+)", after)
        name = declared.group(1) if declared else "?"
        top = match.group(1) == ""
        if not top:
            extensions = re.findall(r"^extension (\w+)", text[:match.start()], flags=re.M)
            name = extensions[-1] if extensions else "?"
        found.append((line, top, name, TRAIT in attr))
    return found


def main() -> int:
    texts = {path: path.read_text() for path in sorted((ROOT / "Tests").rglob("*.swift"))}
    everything = {path: suites(text) for path, text in texts.items()}
    with_trait = {name for found in everything.values() for _, top, name, has in found if top and has}
    problems = []
    for path, found in everything.items():
        relative = path.relative_to(ROOT)
        if "@Test" in texts[path] and not found:
            problems.append(f"{relative}: tests outside a @Suite (declare one, with {TRAIT})")
        for line, top, name, has in found:
            if top and not has:
                problems.append(f"{relative}:{line}: suite {name} does not run on its own thread (add {TRAIT})")
            if not top and not has and name not in with_trait:
                problems.append(f"{relative}:{line}: suite nested in {name}, which does not name {TRAIT}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
