import RinDomain

/// What the jobs produced, counted for the operator report (`rinjobs report`): grouped counts
/// of the output tables, never a name, number or address. Each is one grouped query; the report
/// runs them once, off the nightly's path.
public struct OutputTallies: Sendable, Equatable, Codable {
  public struct TierCount: Sendable, Equatable, Codable {
    public var tier: String
    public var users: Int
    public var up: Int
    public var down: Int
    /// Delta 0 or none (a first snapshot).
    public var same: Int
  }

  public struct SuggestionCount: Sendable, Equatable, Codable {
    public var pattern: String
    public var status: String
    public var count: Int
  }

  public struct UpcomingCount: Sendable, Equatable, Codable {
    public var occursOn: String
    public var kind: String
    public var count: Int
  }

  /// Users by what a tab's badge shows: nothing, a number, or "99+".
  public struct BadgeBands: Sendable, Equatable, Codable {
    public var tab: String
    public var none: Int
    public var number: Int
    public var ninetyNinePlus: Int
  }

  /// The latest `as_of` of `score_snapshots`, nil when there is none.
  public var scoreAsOf: String?
  public var tiers: [TierCount] = []
  public var suggestions: [SuggestionCount] = []
  public var upcoming: [UpcomingCount] = []
  public var badges: [BadgeBands] = []

  public init() {}
}

extension ReportQueries {
  /// `upcomingFrom`…`upcomingTo`: the days (inclusive) of upcoming events to count.
  public func outputTallies(upcomingFrom: CalendarDate, upcomingTo: CalendarDate) throws -> OutputTallies {
    var tallies = OutputTallies()
    tallies.scoreAsOf = try sql.textValue("SELECT max(as_of) AS value FROM score_snapshots")
    if let asOf = tallies.scoreAsOf {
      try sql.forEachRow(
        """
        SELECT tier, count(*), sum(CASE WHEN delta > 0 THEN 1 ELSE 0 END),
          sum(CASE WHEN delta < 0 THEN 1 ELSE 0 END)
        FROM score_snapshots WHERE as_of = \(.text(asOf)) GROUP BY tier ORDER BY tier
        """
      ) { row in
        let (users, up, down) = (Int(row.integer(1)), Int(row.integer(2)), Int(row.integer(3)))
        tallies.tiers.append(
          .init(tier: row.text(0) ?? "", users: users, up: up, down: down, same: users - up - down))
      }
    }
    try sql.forEachRow(
      "SELECT pattern, status, count(*) FROM circle_suggestions GROUP BY pattern, status ORDER BY pattern, status"
    ) { row in
      tallies.suggestions.append(
        .init(pattern: row.text(0) ?? "", status: row.text(1) ?? "", count: Int(row.integer(2))))
    }
    try sql.forEachRow(
      """
      SELECT occurs_on, kind, count(*) FROM upcoming_events
      WHERE dismissed_at IS NULL AND occurs_on >= \(SQLValue(upcomingFrom)) AND occurs_on <= \(SQLValue(upcomingTo))
      GROUP BY occurs_on, kind ORDER BY occurs_on, kind
      """
    ) { row in
      tallies.upcoming.append(
        .init(occursOn: row.text(0) ?? "", kind: row.text(1) ?? "", count: Int(row.integer(2))))
    }
    let tabs = ["home", "circles", "score", "profile"]
    let bands = tabs.map { tab in
      """
      sum(CASE WHEN \(tab) <= 0 THEN 1 ELSE 0 END), sum(CASE WHEN \(tab) BETWEEN 1 AND 99 THEN 1 ELSE 0 END),
      sum(CASE WHEN \(tab) > 99 THEN 1 ELSE 0 END)
      """
    }
    try sql.forEachRow("SELECT \(literal: bands.joined(separator: ", ")) FROM badge_counts") { row in
      for (index, tab) in tabs.enumerated() {
        tallies.badges.append(
          .init(
            tab: tab, none: Int(row.integer(3 * index)), number: Int(row.integer(3 * index + 1)),
            ninetyNinePlus: Int(row.integer(3 * index + 2))))
      }
    }
    return tallies
  }
}
