#!/usr/bin/env python3
"""docs/ARCHITECTURE.md's module map against Package.swift, and each module's imports against
its declared dependencies (issue 33). Exits 1 naming every difference.

- The map's nodes are Package.swift's targets, tests and RinTestSupport aside; each of its edges
  is a declared dependency of one target on another, and every such dependency is an edge.
- Every module a target imports is one it declares (a target, or a product of a package), or
  the platform's (Foundation, Synchronization, ...): a module reached only through another
  package builds by accident and breaks when that package changes.
- What production runs (`rinjobs`, the `rin-<job>` executables) links no seeder and no provider
  stub.
- SQL statements are written only in RinStorage and in a job's folder (`Sources/RinJobs/<Job>/`),
  or by the development tools that stand in for the services (RinSeed, rinjobs-dev).
- docs/ARCHITECTURE.md's "Tables of our own" lists every table RuntimeSchema.swift,
  RetentionSchema.swift or ContactStateSchema.swift creates and no later step drops, and no other
  (issue 42).
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = {"Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Musl",
            "Synchronization", "_Concurrency", "Testing", "XCTest", "os", "Darwin"}
NOT_IN_PRODUCTION = {"RinSeed", "RinProviderStub", "RinTestSupport"}


def package() -> dict:
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def declared(target: dict) -> list[tuple[str, str]]:
    """(kind, name) of each dependency: kind is byName, target or product."""
    result = []
    for dep in target.get("dependencies", []):
        kind, value = next(iter(dep.items()))
        result.append((kind, value[0]))
    return result


def diagram() -> tuple[set[str], set[tuple[str, str]]]:
    text = (ROOT / "docs/ARCHITECTURE.md").read_text()
    block = re.search(r"```mermaid\n(.*?)```", text, re.S).group(1)
    names = {}
    for node, label in re.findall(r'^\s*([\w-]+)\["([^"]*)"\]', block, re.M):
        names[node] = label.split("<br/>")[0].strip()
    edges = set()
    for left, right in re.findall(r"^\s*([\w\s&-]+?)\s*-->\s*([\w\s&-]+?)\s*$", block, re.M):
        for a in left.split("&"):
            for b in right.split("&"):
                edges.add((names.get(a.strip(), a.strip()), names.get(b.strip(), b.strip())))
    return set(names.values()), edges


def own_tables() -> tuple[set[str], set[str]]:
    """The tables RuntimeSchema.swift and RetentionSchema.swift create, and those ARCHITECTURE.md's
    "Tables of our own" lists."""
    # In the order the migrations came: a table a later step drops (and none makes again) is gone.
    schema = "".join(
        (ROOT / "Sources/RinStorage/Schema" / name).read_text()
        for name in ("RuntimeSchema.swift", "RetentionSchema.swift", "ContactStateSchema.swift"))
    created = set()
    for verb, table in re.findall(r"(CREATE|DROP) TABLE (?:IF NOT EXISTS |IF EXISTS )?(\w+)", schema):
        (created.add if verb == "CREATE" else created.discard)(table)
    text = (ROOT / "docs/ARCHITECTURE.md").read_text()
    section = re.search(r"^## Tables of our own\n(.*?)(?=^## )", text, re.S | re.M)
    listed = set(re.findall(r"^\| `(\w+)` \|", section.group(1), re.M)) if section else set()
    return created, listed


def imports(path: Path) -> set[str]:
    found = set()
    for file in path.rglob("*.swift"):
        for line in file.read_text().splitlines():
            m = re.match(r"^(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|enum\s+|class\s+)?(\w+)", line)
            if m:
                found.add(m.group(1))
    return found


# A statement's head as our code writes one: comments are not statements.
SQL_STATEMENT = re.compile(r"\b(SELECT\b.*\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (UNIQUE )?(TABLE|INDEX)"
                           r"|ALTER TABLE|DROP (TABLE|INDEX))\b")
SQL_HOMES = ("Sources/RinStorage/", "Sources/RinSeed/", "Sources/rinjobs-dev/")


def misplaced_sql() -> list[str]:
    """Lines of Swift outside a job's folder and RinStorage that write a SQL statement."""
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        parts = relative.split("/")
        in_job_folder = parts[1] == "RinJobs" and len(parts) > 3 and parts[2] != "Shared"
        if relative.startswith(SQL_HOMES) or in_job_folder:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.lstrip().startswith("//") and SQL_STATEMENT.search(line):
                found.append(f"{relative}:{number}: SQL outside RinStorage and the job folders (move the "
                             f"statement into the job's folder or a RinStorage primitive)")
    return found


def main() -> int:
    pkg = package()
    targets = {t["name"]: t for t in pkg["targets"]}
    problems = []

    mapped = {n for n, t in targets.items() if t["type"] != "test" and n != "RinTestSupport"}
    nodes, edges = diagram()
    for n in sorted(mapped - nodes):
        problems.append(f"docs/ARCHITECTURE.md: the module map lacks target {n} (Package.swift has it)")
    for n in sorted(nodes - mapped):
        problems.append(f"docs/ARCHITECTURE.md: the module map shows {n}, which Package.swift has no target of")
    real = {(n, d) for n in mapped for kind, d in declared(targets[n]) if d in targets}
    for a, b in sorted(real - edges):
        problems.append(f"docs/ARCHITECTURE.md: the module map lacks the edge {a} --> {b} (Package.swift declares it)")
    for a, b in sorted(edges - real):
        problems.append(f"docs/ARCHITECTURE.md: the module map shows {a} --> {b}, which Package.swift does not declare")

    for name, target in sorted(targets.items()):
        if target["type"] == "system":
            continue
        path = ROOT / (target.get("path") or (("Tests/" if target["type"] == "test" else "Sources/") + name))
        allowed = {d for _, d in declared(target)} | PLATFORM | {name}
        for module in sorted(imports(path) - allowed):
            problems.append(f"{path.relative_to(ROOT)}: imports {module}, which target {name} does not declare "
                            f"in Package.swift (declare it, or stop importing it)")

    def closure(name: str, seen: set[str]) -> set[str]:
        for _, d in declared(targets[name]):
            if d in targets and d not in seen:
                seen.add(d)
                closure(d, seen)
        return seen

    for name, target in sorted(targets.items()):
        if target["type"] == "executable" and (name == "rinjobs" or name.startswith("rin-")):
            for extra in sorted(closure(name, set()) & NOT_IN_PRODUCTION):
                problems.append(f"Package.swift: {name} runs in production but links {extra}")

    problems += misplaced_sql()

    created, listed = own_tables()
    for t in sorted(created - listed):
        problems.append(f"docs/ARCHITECTURE.md: \"Tables of our own\" lacks {t} (a schema file of our own tables creates it)")
    for t in sorted(listed - created):
        problems.append(f"docs/ARCHITECTURE.md: \"Tables of our own\" lists {t}, which no schema file of our own tables creates (or a later step drops)")

    for p in problems:
        print(f"check-architecture: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
