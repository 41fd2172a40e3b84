import RinDomain
import RinTestSupport
import Testing

@testable import RinReport

/// `rinjobs footprint`'s text and metrics over a footprint of a few relations.
@Suite("footprint text and metrics", .onItsOwnThread)
struct FootprintOutputTests {
  static let footprint = Footprint(
    backend: "postgres", users: 2, rowsEstimated: true,
    relations: [
      FootprintRelation(
        name: "contacts", kind: .table, table: "contacts", group: .services, bytes: 8_192, rows: 40),
      FootprintRelation(
        name: "contacts_by_change", kind: .index, table: "contacts", group: .ourIndexes, bytes: 16_384,
        rows: 40),
      FootprintRelation(
        name: "job_runs", kind: .table, table: "job_runs", group: .state, bytes: 8_192, rows: nil),
    ])

  @Test func theMetricsHaveOneSeriesPerTableAndGroupAndTheRatio() {
    let text = MetricsFile.render(footprint: Self.footprint)
    #expect(text.contains(#"rinjobs_table_bytes{table="contacts",group="services"} 8192"#), "\(text)")
    #expect(text.contains(#"rinjobs_table_bytes{table="contacts",group="our_indexes"} 16384"#), "\(text)")
    #expect(text.contains(#"rinjobs_table_bytes{table="job_runs",group="state"} 8192"#), "\(text)")
    #expect(text.contains("rinjobs_footprint_kept_ratio 3"), "\(text)")
    #expect(text.contains("# TYPE rinjobs_table_bytes gauge") && text.contains("# HELP rinjobs_table_bytes "))
  }

  @Test func theTextSaysTheRatioAgainstTheTargetAndThatRowsAreEstimates() {
    let text = FootprintText.render(Self.footprint)
    #expect(text.contains("3.00 × services (OVER the target of 1.00 × on postgres)"), "\(text)")
    #expect(text.contains("estimates"), "\(text)")
    #expect(
      text.contains("our_indexes: 16.0 KiB (16,384 bytes), 0 tables, 1 index, 8,192 bytes per user"),
      "\(text)")
    #expect(text.contains("unknown"), "job_runs' rows: \(text)")
  }
}
