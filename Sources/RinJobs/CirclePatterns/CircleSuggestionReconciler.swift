import RinDomain

/// A `circle_suggestions` row as the reconciler needs it.
public struct ExistingCircleSuggestion: Sendable, Equatable {
  public var id: Int64
  public var circleID: Int64
  public var pattern: String
  public var patternValue: String
  public var fingerprint: String
  public var status: String

  public init(
    id: Int64, circleID: Int64, pattern: String, patternValue: String, fingerprint: String, status: String
  ) {
    self.id = id
    self.circleID = circleID
    self.pattern = pattern
    self.patternValue = patternValue
    self.fingerprint = fingerprint
    self.status = status
  }
}

/// What to write given every group found now for one user and every suggestion stored for
/// them (docs/CONTRACT.md §3.2).
public enum CircleSuggestionReconciler {
  public struct Plan: Sendable, Equatable {
    /// Groups never suggested before.
    public var inserts: [CircleGroup] = []
    /// Ids of `open` suggestions that are no longer a group found now: a new group for the
    /// same circle, pattern and value replaces them, or the data no longer supports them.
    public var superseded: [Int64] = []
    public init(inserts: [CircleGroup] = [], superseded: [Int64] = []) {
      self.inserts = inserts
      self.superseded = superseded
    }
  }

  /// A fingerprint already stored, in any status, is never written again: a dismissal is
  /// permanent for that exact group, and a rerun changes nothing. After the plan, the open
  /// suggestions are exactly the groups found now that were never dismissed or accepted, so an
  /// open suggestion never names a member, a removed or a deleted contact.
  public static func plan(detected: [CircleGroup], existing: [ExistingCircleSuggestion]) -> Plan {
    var known = Set(existing.map(\.fingerprint))
    let current = Set(detected.map(\.fingerprint))
    var plan = Plan()
    for group in detected where known.insert(group.fingerprint).inserted {
      plan.inserts.append(group)
    }
    plan.superseded = existing.filter {
      $0.status == CircleSuggestionStatus.open.rawValue && !current.contains($0.fingerprint)
    }
    .map(\.id).sorted()
    return plan
  }
}
