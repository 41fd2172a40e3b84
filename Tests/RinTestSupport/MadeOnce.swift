import Synchronization

/// Values a test run makes once per key and shares: the first caller of a key makes it while
/// later callers of that key wait for it, and callers of other keys go on (a seeded template, a
/// reliability suite's uninterrupted reference run). A make that throws leaves the key unmade,
/// so the next caller tries again and sees the error itself.
package final class MadeOnce<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private final class Slot: Sendable {
    let made = Mutex<Value?>(nil)
  }

  private let slots = Mutex<[Key: Slot]>([:])

  package init() {}

  package func value(for key: Key, make: () throws -> Value) throws -> Value {
    let slot = slots.withLock { slots in
      if let slot = slots[key] { return slot }
      let slot = Slot()
      slots[key] = slot
      return slot
    }
    return try slot.made.withLock { made in
      if let made { return made }
      let new = try make()
      made = new
      return new
    }
  }
}
