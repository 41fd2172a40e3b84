import RinDomain
import RinStorage

/// The report's "Footprint" section (docs/OPERATIONS.md "Footprint"): the groups' bytes, kept
/// against the services' bytes, and the ten largest relations, measured when the report is made
/// (as `rinjobs footprint` measures them) along with how long that took.
public struct ReportFootprint: Sendable, Encodable {
  public struct Group: Sendable, Encodable, Equatable {
    public var group: String
    public var bytes: Int64
    public var tables: Int
    public var indexes: Int
    public var bytesPerUser: Double?
  }

  public var backend: String
  public var users: Int64
  public var rowsEstimated: Bool
  public var groups: [Group]
  public var totalBytes: Int64
  public var keptBytes: Int64
  public var keptToServices: Double?
  public var keptTarget: Double
  public var bytesPerUser: Double?
  /// Largest first.
  public var largest: [FootprintRelation]
  /// How long measuring took, to the millisecond.
  public var seconds: Double

  public static let largestShown = 10

  static func build(storage: Storage) throws -> ReportFootprint {
    let clock = ContinuousClock()
    let started = clock.now
    let footprint = try storage.footprint()
    let elapsed = started.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return ReportFootprint(
      backend: footprint.backend, users: footprint.users, rowsEstimated: footprint.rowsEstimated,
      groups: FootprintGroup.allCases.map { group in
        let total = footprint.total(group)
        return Group(
          group: group.rawValue, bytes: total.bytes, tables: total.tables, indexes: total.indexes,
          bytesPerUser: total.bytesPerUser)
      },
      totalBytes: footprint.totalBytes, keptBytes: footprint.keptBytes,
      keptToServices: footprint.keptToServices, keptTarget: footprint.keptTarget,
      bytesPerUser: footprint.bytesPerUser, largest: footprint.largest(largestShown),
      seconds: (seconds * 1_000).rounded() / 1_000)
  }
}
