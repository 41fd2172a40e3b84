import Foundation
import RinStorage

/// Generates chunks on a background thread while the caller writes the previous one: on two
/// cores generation then costs almost nothing next to SQLite. Chunks come out strictly in
/// order, so the data is the same as a sequential run. At most `capacity` chunks wait in
/// memory, which keeps memory flat however many users are seeded.
final class ChunkPipeline: @unchecked Sendable {
  // @unchecked: every mutable field below is read and written only under `condition`.
  private let condition = NSCondition()
  private var ready: [GeneratedChunk] = []
  /// Written chunks' table arrays, handed back so the generator refills them: their capacity is
  /// reused (no page faults for fresh memory) and their strings are freed on the generator's
  /// thread rather than the writer's.
  private var spare: [[[SQLValue]]] = []
  private var producing = true
  private var cancelled = false
  private let capacity: Int

  /// `ids`: the id counters to go on from (the largest ids already in the database).
  init(ctx: SeedContext, usersPerChunk: Int, ids: IDCounters = IDCounters(), capacity: Int = 2) {
    self.capacity = capacity
    let thread = Thread { [self] in produce(ctx, usersPerChunk, ids) }
    thread.name = "rin-seed-generator"
    thread.start()
  }

  /// The next chunk in order, or nil when all users have been generated.
  func next() -> GeneratedChunk? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty && producing { condition.wait() }
    guard !ready.isEmpty else { return nil }
    let chunk = ready.removeFirst()
    condition.broadcast()
    return chunk
  }

  func recycle(_ chunk: GeneratedChunk) {
    condition.lock()
    defer { condition.unlock() }
    if spare.count < capacity + 1 { spare.append(chunk.tables) }
  }

  /// Stops the producer (after a write failed) and waits until it has let go.
  func cancel() {
    condition.lock()
    defer { condition.unlock() }
    cancelled = true
    ready.removeAll()
    condition.broadcast()
    while producing { condition.wait() }
  }

  private func produce(_ ctx: SeedContext, _ usersPerChunk: Int, _ start: IDCounters) {
    var ids = start
    var first = ctx.firstUser
    while first <= ctx.users {
      let last = min(ctx.users, first + usersPerChunk - 1)
      condition.lock()
      var tables = spare.popLast() ?? []
      condition.unlock()
      for index in tables.indices { tables[index].removeAll(keepingCapacity: true) }
      let chunk = GeneratedChunk.generate(users: first...last, ids: &ids, reusing: tables, ctx)
      condition.lock()
      while ready.count >= capacity && !cancelled { condition.wait() }
      if cancelled {
        condition.unlock()
        break
      }
      ready.append(chunk)
      condition.broadcast()
      condition.unlock()
      first = last + 1
    }
    condition.lock()
    producing = false
    condition.broadcast()
    condition.unlock()
  }
}
