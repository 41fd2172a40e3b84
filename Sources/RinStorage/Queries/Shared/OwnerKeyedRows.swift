/// Rows of one batch keyed by (owner, contact), read in that order, then looked up in that
/// order too: the reader walks forward instead of hashing (a dictionary per contact was a fifth
/// of daily-score's time at 5.8 M contacts). A key behind the walk is found by binary search.
package struct OwnerKeyedRows<Value> {
  private var owners: [Int64] = []
  private var contacts: [Int64] = []
  private var values: [Value] = []
  private var position = 0

  /// `append` in ascending (owner, contact) order; out-of-order rows are sorted by `lookUp`.
  package init() {}

  package mutating func append(owner: Int64, contact: Int64, _ value: Value) {
    owners.append(owner)
    contacts.append(contact)
    values.append(value)
  }

  private func precedes(_ i: Int, _ owner: Int64, _ contact: Int64) -> Bool {
    owners[i] < owner || (owners[i] == owner && contacts[i] < contact)
  }

  /// The value stored for (owner, contact), or nil.
  package mutating func lookUp(owner: Int64, contact: Int64) -> Value? {
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
