"""A fortnight report's statement profile, grouped by what each statement does to which table.

`bench/run.sh --fortnight` on PostgreSQL keeps every night's pg_stat_statements (with
pg_stat_kcache's CPU) in its JSON report in the bench cache. This sums each night's listed
statements by verb and table (`insert enrichment_lookups`, `select contacts`, cursors apart), so
that two commits' nights compare by what they write and read (issue 74):

  python3 bench/tools/group_statements.py CACHE/fortnight-A.json CACHE/fortnight-B.json
"""
import collections
import json
import re
import sys


def postgres_series(path):
    """The report's PostgreSQL series (a report may hold SQLite's too, which has no profile)."""
    data = json.load(open(path))
    return [(name, series) for name, series in data.items() if name.startswith("PostgreSQL")]


def group(query):
    query = query.replace('"', "")
    if query.lstrip().upper().startswith(("DECLARE", "CLOSE", "FETCH")):
        return "cursor"
    verb = re.match(r"\s*(INSERT INTO|DELETE FROM|UPDATE)\s+(\w+)", query)
    if verb:
        return f"{verb.group(1).split()[0].lower()} {verb.group(2)}"
    source = re.search(r"\bFROM\s+(\w+)", query)
    return f"select {source.group(1)}" if source else "other"


def main():
    for path in sys.argv[1:]:
        for name, series in postgres_series(path):
            for number, night in enumerate(series["nights"], start=1):
                profile = night["nightly"]["profile"]
                cpu, rows = collections.Counter(), collections.Counter()
                for statement in profile["statements"]:
                    cpu[group(statement["query"])] += statement["cpu"] or 0
                    rows[group(statement["query"])] += statement["rows"] or 0
                print(f"{path} {name} night {number}: statements {profile['cpu']:.0f} ms of the server's "
                      f"{night['nightly']['server_cpu'] * 1000:.0f} ms ({len(profile['statements'])} listed)")
                for group_name, ms in cpu.most_common(14):
                    print(f"  {ms:8.1f} ms {rows[group_name]:8d} rows  {group_name}")


if __name__ == "__main__":
    main()
