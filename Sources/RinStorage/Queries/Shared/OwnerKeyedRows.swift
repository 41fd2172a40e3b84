import RinDomain

/// Rows of one batch keyed by (owner, contact), read in that order, then looked up in that
/// order too: the reader walks forward instead of hashing (a dictionary per contact was a fifth
/// of daily-score's time at 5.8 M contacts). A key behind the walk is found by binary search.
package struct OwnerKeyedRows<Value> {
  // The integers, not the typed ids: the walk compares them once per contact of a batch.
  private var owners: [Int64] = []
  private var contacts: [Int64] = []
  private var values: [Value] = []
  private var position = 0

  /// `append` in ascending (owner, contact) order; out-of-order rows are sorted by `lookUp`.
  package init() {}

  package mutating func append(owner: UserID, contact: ContactID, _ value: Value) {
    owners.append(owner.rawValue)
    contacts.append(contact.rawValue)
    values.append(value)
  }

  private func precedes(_ i: Int, _ owner: Int64, _ contact: Int64) -> Bool {
    owners[i] < owner || (owners[i] == owner && contacts[i] < contact)
  }

  /// The value stored for (owner, contact), or nil.
  package mutating func lookUp(owner: UserID, contact: ContactID) -> Value? {
    let (owner, contact) = (owner.rawValue, contact.rawValue)
    if position > 0, !precedes(position - 1, owner, contact) {
      // Behind the walk: start again from the first key not before it.
      position = partitionPoint(0..<position) { precedes($0, owner, contact) }
    }
    while position < owners.count, precedes(position, owner, contact) { position += 1 }
    guard position < owners.count, owners[position] == owner, contacts[position] == contact else {
      return nil
    }
    return values[position]
  }
}
