import RinDomain

/// `rinjobs footprint` as text: the headline (users, total, kept against the services' bytes),
/// then a table per group, largest relation first.
public enum FootprintText {
  public static func render(_ footprint: Footprint) -> String {
    var lines = headline(footprint)
    for group in FootprintGroup.allCases {
      let total = footprint.total(group)
      lines.append("")
      lines.append(
        "\(group.rawValue): \(size(total.bytes)), \(count(total.tables, "table")), \(count(total.indexes, "index"))"
          + (total.bytesPerUser.map { ", \(perUser($0)) per user" } ?? ""))
      let relations = footprint.relations.filter { $0.group == group }
      guard !relations.isEmpty else { continue }
      lines += table(
        headers: ["name", "kind", "table", "bytes", "exact", "rows"],
        rows: relations.map { relation in
          [
            relation.name, relation.kind.rawValue, relation.table, ByteCountFormat.human(relation.bytes),
            ByteCountFormat.grouped(relation.bytes), relation.rows.map(ByteCountFormat.grouped) ?? "unknown",
          ]
        },
        rightAligned: [3, 4, 5])
    }
    return lines.joined(separator: "\n")
  }

  static func headline(_ footprint: Footprint) -> [String] {
    let rows =
      footprint.rowsEstimated
      ? "rows are PostgreSQL's estimates (pg_class.reltuples; unknown: never analyzed)" : "rows counted"
    var lines = [
      "footprint of the \(footprint.backend) database: \(ByteCountFormat.grouped(footprint.users)) users, "
        + "\(size(footprint.totalBytes))"
        + (footprint.bytesPerUser.map { ", \(perUser($0)) per user" } ?? "") + "; \(rows)"
    ]
    var kept = "kept (state + cache + our_indexes): \(size(footprint.keptBytes))"
    if let perUser = footprint.keptBytesPerUser { kept += ", \(Self.perUser(perUser)) per user" }
    if let ratio = footprint.keptToServices {
      let verdict = ratio <= footprint.keptTarget ? "within" : "OVER"
      kept +=
        "; \(ratioText(ratio)) × services (\(verdict) the target of \(ratioText(footprint.keptTarget)) × on \(footprint.backend))"
    } else {
      kept += "; the services' tables hold nothing yet, no ratio"
    }
    lines.append(kept)
    return lines
  }

  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(count == 1 ? noun : noun == "index" ? "indexes" : noun + "s")"
  }

  static func size(_ bytes: Int64) -> String {
    "\(ByteCountFormat.human(bytes)) (\(ByteCountFormat.grouped(bytes)) bytes)"
  }

  static func perUser(_ bytes: Double) -> String {
    "\(ByteCountFormat.grouped(Int64(bytes.rounded()))) bytes"
  }

  /// A ratio to two decimals: 0.83, 1.50.
  public static func ratioText(_ ratio: Double) -> String {
    let hundredths = Int64((ratio * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Columns padded to their widest cell, indented by two spaces.
  static func table(headers: [String], rows: [[String]], rightAligned: Set<Int>) -> [String] {
    let all = [headers] + rows
    let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { cells in
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? padding + cell : cell + padding
      }
      return "  " + padded.joined(separator: "  ").trimmingTrailingSpaces
    }
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
