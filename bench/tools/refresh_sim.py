"""Simulates enrichment-fetch's cache refresh by owner phase (RefreshPhase) for three designs,
to compare what each pays the provider and how evenly over the periods (issue 73).

A key is in the books of one or more owners; each owner visits on its phase day of a 30-day
period and asks again every answer of its book that expires before its next visit. Designs:
natural (every answer kept its TTL), aligned (every answer ends with its key's next period of
every three), firstonly (a key's first answer kept its TTL less 0–2 periods by the key, later
ones their TTL: what c371dd1 built). Prints lookups a key over 450 nights and the lookups of
each period after the first night, for books of one owner, of two, and a mix of one to five.

    python3 bench/tools/refresh_sim.py
"""
import collections
import random

P, K = 30, 3
TTL = K * P
RUN = 2.5 / 24  # the nightly's 02:30


def key_share(key):
    return (key * 2654435761 >> 7) % K


def phase(owner):
    return (owner * 0x9E3779B97F4A7C15 >> 32) % P


def simulate(rule, books, days=450, first=20010 * 30 + 11):
    expiry, asks, per_period = {}, collections.Counter(), collections.Counter()
    for day in range(first, first + days):
        now, period = day + RUN, day // P
        for key, owners in books.items():
            if key in expiry:
                horizons = [day + P for owner in owners if phase(owner) == day % P]
                if not horizons or expiry[key] > max(horizons):
                    continue
            expiry[key] = rule(key, now, period, key not in expiry)
            asks[key] += 1
            per_period[period] += 1
    return asks, per_period


def natural(key, now, period, first):
    return now + TTL


def aligned(key, now, period, first):
    ahead = (key_share(key) - period) % K
    return now + TTL if ahead == 0 else (period + ahead + 1) * P - 1e-5


def firstonly(key, now, period, first):
    return now + TTL - (key_share(key) * P if first else 0)


def main():
    random.seed(1)
    start = (20010 * 30 + 11) // P
    for mix in ["one", "two", "one to five"]:
        books = {}
        for key in range(3000):
            count = {"one": 1, "two": 2}.get(mix) or random.choice([1, 1, 1, 2, 3, 5])
            books[key] = [random.randrange(600) for _ in range(count)]
        for name, rule in [("natural", natural), ("aligned", aligned), ("firstonly", firstonly)]:
            asks, per_period = simulate(rule, books)
            periods = [per_period[g] for g in range(start + 1, start + 15)]
            print(f"{mix:12} {name:10} lookups a key {sum(asks.values()) / len(books):.2f}; a period {periods}")


if __name__ == "__main__":
    main()
