import RinDomain
import RinTestSupport
import Testing

@testable import RinJobs

/// enrichment-fetch selects its owners a window at a time and examines them `batch_size` at a
/// time (`EnrichmentOwners.batches`, `restricted`): the batches cover the window in order, none
/// examines more than its share, and each batch's selection is the window's for its ids.
@Suite("enrichment-fetch windows", .onItsOwnThread)
struct EnrichmentWindowTests {
  /// Owners 1…20; 3, 4, 5, 11 and 19 examined, 19 found by the pass only.
  private static func window() -> ([UserID], EnrichmentOwners) {
    let ids = Array(UserID(1)...20)
    var owners = EnrichmentOwners()
    let reasons: [UserID: OwnerExamination] = [3: .changed, 4: .new, 5: .due, 11: .changed, 19: .periodic]
    owners.examined = reasons.keys.sorted()
    owners.reasonOf = reasons
    owners.periodic = [19]
    owners.foundByPass = [19]
    owners.stampedRows = [3: 30, 4: 40, 5: 50, 11: 110, 19: 190]
    for reason in reasons.values { owners.reasons[reason, default: 0] += 1 }
    owners.unchanged = ids.count - reasons.count
    return (ids, owners)
  }

  @Test func batchesCoverTheWindowInOrderWithAtMostTheirShareExamined() {
    let (ids, owners) = Self.window()
    let batches = owners.batches(of: ids, examinedPerBatch: 2)
    #expect(batches.map { Array($0) } == [Array(1...4), Array(5...11), Array(12...20)])
    #expect(Array(batches.joined()) == ids)
    for batch in batches { #expect(batch.filter { owners.reasonOf[$0] != nil }.count <= 2) }
    // A window with nothing to examine is one batch; a share of 0 is taken as 1.
    #expect(EnrichmentOwners().batches(of: ids, examinedPerBatch: 25).map { Array($0) } == [ids])
    #expect(owners.batches(of: ids, examinedPerBatch: 0).map(\.last) == [3, 4, 5, 11, 19, 20])
  }

  @Test func aBatchsSelectionIsTheWindowsForItsIds() {
    let (ids, owners) = Self.window()
    let batches = owners.batches(of: ids, examinedPerBatch: 2).map(owners.restricted(to:))
    #expect(batches.map(\.examined) == [[3, 4], [5, 11], [19]])
    #expect(batches.map(\.unchanged) == [2, 5, 8])
    #expect(batches.map(\.periodic) == [[], [], [19]])
    #expect(batches.map(\.foundByPass) == [[], [], [19]])
    #expect(batches.reduce(0) { $0 + $1.unchanged + $1.examined.count } == ids.count)
    #expect(batches[1].stampedRows == [5: 50, 11: 110])
    #expect(batches[0].reasons == [.changed: 1, .new: 1])
    #expect(batches[2].reasonOf == [19: .periodic])
  }
}
