/// A `circle_suggestions` row as the reconciler needs it.
public struct ExistingCircleSuggestion: Sendable, Equatable {
  public var id: Int64
  public var circleID: Int64
  public var pattern: String
  public var patternValue: String
  public var fingerprint: String
  public var status: String

  public init(id: Int64, circleID: Int64, pattern: String, patternValue: String, fingerprint: String, status: String) {
    self.id = id
    self.circleID = circleID
    self.pattern = pattern
    self.patternValue = patternValue
    self.fingerprint = fingerprint
    self.status = status
  }
}

/// What to write given the groups found now and the suggestions already stored (000 §3.1.4).
public enum CircleSuggestionReconciler {
  public struct Plan: Sendable, Equatable {
    /// Groups never suggested before.
    public var inserts: [CircleGroup] = []
    /// Ids of `open` suggestions that a new group for the same circle, pattern and value replaces.
    public var superseded: [Int64] = []
    public init(inserts: [CircleGroup] = [], superseded: [Int64] = []) {
      self.inserts = inserts
      self.superseded = superseded
    }
  }

  /// A fingerprint already stored, in any status, is never written again: a dismissal is
  /// permanent for that exact group, and a rerun changes nothing.
  public static func plan(detected: [CircleGroup], existing: [ExistingCircleSuggestion]) -> Plan {
    var known = Set(existing.map(\.fingerprint))
    var openByKey: [String: [Int64]] = [:]
    for row in existing where row.status == CircleSuggestionStatus.open.rawValue {
      openByKey[key(row.circleID, row.pattern, row.patternValue), default: []].append(row.id)
    }
    var plan = Plan()
    for group in detected where known.insert(group.fingerprint).inserted {
      plan.inserts.append(group)
      plan.superseded += openByKey[key(group.circleID, group.pattern.rawValue, group.value)] ?? []
    }
    plan.superseded.sort()
    return plan
  }

  private static func key(_ circle: Int64, _ pattern: String, _ value: String) -> String {
    "\(circle)|\(pattern)|\(value)"
  }
}
