import RinDomain
import RinTestSupport
import Testing

@testable import RinRuntime

/// A checkpoint's scope is written as it always was, so that checkpoints already in a database
/// still match the runs that resume them; a shard is one `RunShard` from the option down.
@Suite("checkpoint scope and shard", .onItsOwnThread)
struct CheckpointScopeTests {
  @Test func theScopeIsTheShardThenTheUsers() {
    #expect(CheckpointScope(shard: .all, userIDs: nil).description == "all")
    #expect(CheckpointScope(shard: .part(index: 1, count: 4), userIDs: nil).description == "1/4")
    #expect(CheckpointScope(shard: .all, userIDs: [3, 7]).description == "all users 3,7")
    #expect(CheckpointScope(shard: .part(index: 0, count: 2), userIDs: [5]).description == "0/2 users 5")
  }

  @Test func anOptionResolvesToTheShardStorageTakes() throws {
    #expect(try ShardSpec(parsing: "1/4").resolve(environment: [:]).get() == .part(index: 1, count: 4))
    let auto = try ShardSpec(parsing: "auto/3")
    #expect(try auto.resolve(environment: ["JOB_COMPLETION_INDEX": "2"]).get() == .part(index: 2, count: 3))
    #expect(throws: RunFailure.self) { try auto.resolve(environment: [:]).get() }
    #expect(RunShard.part(index: 2, count: 3).part?.index == 2 && RunShard.all.part == nil)
  }
}
