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
      tallies.tiers = try sql.rows(
        TierRow.self,
        """
        SELECT tier, count(*) AS users, sum(CASE WHEN delta > 0 THEN 1 ELSE 0 END) AS up,
          sum(CASE WHEN delta < 0 THEN 1 ELSE 0 END) AS down
        FROM score_snapshots WHERE as_of = \(.text(asOf)) GROUP BY tier ORDER BY tier
        """
      ).map(\.count)
    }
    tallies.suggestions = try sql.rows(
      SuggestionRow.self,
      """
      SELECT pattern, status, count(*) AS count FROM circle_suggestions
      GROUP BY pattern, status ORDER BY pattern, status
      """
    ).map(\.count)
    tallies.upcoming = try sql.rows(
      UpcomingRow.self,
      """
      SELECT occurs_on, kind, count(*) AS count FROM upcoming_events
      WHERE dismissed_at IS NULL AND occurs_on >= \(SQLValue(upcomingFrom)) AND occurs_on <= \(SQLValue(upcomingTo))
      GROUP BY occurs_on, kind ORDER BY occurs_on, kind
      """
    ).map(\.count)
    for tab in ["home", "circles", "score", "profile"] {
      let bands = try sql.rows(
        BadgeBandRow.self,
        """
        SELECT coalesce(sum(CASE WHEN \(literal: tab) <= 0 THEN 1 ELSE 0 END), 0) AS none,
          coalesce(sum(CASE WHEN \(literal: tab) BETWEEN 1 AND 99 THEN 1 ELSE 0 END), 0) AS number,
          coalesce(sum(CASE WHEN \(literal: tab) > 99 THEN 1 ELSE 0 END), 0) AS ninety_nine_plus
        FROM badge_counts
        """)
      for band in bands {
        tallies.badges.append(
          .init(tab: tab, none: band.none, number: band.number, ninetyNinePlus: band.ninetyNinePlus))
      }
    }
    return tallies
  }
}

private struct TierRow: DecodableRow {
  enum Columns: Int, RowColumns { case tier, users, up, down }
  static let table = "score_snapshots"
  let count: OutputTallies.TierCount

  init(_ row: RowDecoder<Columns>) throws {
    let (users, up, down) = (try row.count(.users), try row.count(.up), try row.count(.down))
    count = .init(tier: try row.text(.tier), users: users, up: up, down: down, same: users - up - down)
  }
}

private struct SuggestionRow: DecodableRow {
  enum Columns: Int, RowColumns { case pattern, status, count }
  static let table = "circle_suggestions"
  let count: OutputTallies.SuggestionCount

  init(_ row: RowDecoder<Columns>) throws {
    count = .init(
      pattern: try row.text(.pattern), status: try row.text(.status), count: try row.count(.count))
  }
}

private struct UpcomingRow: DecodableRow {
  enum Columns: Int, RowColumns { case occursOn, kind, count }
  static let table = "upcoming_events"
  let count: OutputTallies.UpcomingCount

  init(_ row: RowDecoder<Columns>) throws {
    count = .init(occursOn: try row.text(.occursOn), kind: try row.text(.kind), count: try row.count(.count))
  }
}

/// Users by what one tab's badge shows.
private struct BadgeBandRow: DecodableRow {
  enum Columns: Int, RowColumns { case none, number, ninetyNinePlus }
  static let table = "badge_counts"
  let none: Int
  let number: Int
  let ninetyNinePlus: Int

  init(_ row: RowDecoder<Columns>) throws {
    none = try row.count(.none)
    number = try row.count(.number)
    ninetyNinePlus = try row.count(.ninetyNinePlus)
  }
}
