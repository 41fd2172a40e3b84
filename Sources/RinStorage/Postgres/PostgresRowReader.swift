import CLibPQ
import Foundation

/// Reads the current row of a result in PostgreSQL's text format. Never traps on a value it
/// cannot read as asked: like the SQLite reader, a malformed value reads as nil.
final class PostgresRowReader: SQLRowReader {
  private let result: PostgresResult
  var row: Int32 = 0

  init(result: PostgresResult) { self.result = result }

  /// Type OIDs of pg_type that need more than text.
  private enum OID {
    static let bool: Oid = 16
    static let integers: Set<Oid> = [20, 21, 23]
    static let reals: Set<Oid> = [700, 701, 1700]
  }

  private func bytes(_ index: Int) -> UnsafeMutablePointer<CChar>? {
    let column = Int32(index)
    guard PQgetisnull(result.handle, row, column) == 0 else { return nil }
    return PQgetvalue(result.handle, row, column)
  }

  private func type(_ index: Int) -> Oid { PQftype(result.handle, Int32(index)) }

  var columnCount: Int { Int(PQnfields(result.handle)) }

  func columnName(_ index: Int) -> String {
    PQfname(result.handle, Int32(index)).map { String(cString: $0) } ?? ""
  }

  func isNull(_ index: Int) -> Bool { PQgetisnull(result.handle, row, Int32(index)) != 0 }

  func int64(_ index: Int) -> Int64? {
    guard let bytes = bytes(index) else { return nil }
    if type(index) == OID.bool { return bytes.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
    if let integer = Self.parseInteger(bytes) { return integer }
    guard let v = double(index) else { return nil }
    return v.rounded() == v && abs(v) < 9e18 ? Int64(v) : nil
  }

  func double(_ index: Int) -> Double? {
    guard let bytes = bytes(index) else { return nil }
    if type(index) == OID.bool { return bytes.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
    var end: UnsafeMutablePointer<CChar>?
    let value = strtod(bytes, &end)
    guard let end, end != bytes, end.pointee == 0 else { return nil }
    return value
  }

  func text(_ index: Int) -> String? {
    bytes(index).map { String(cString: $0) }
  }

  func value(_ index: Int) -> SQLValue {
    guard bytes(index) != nil else { return .null }
    let oid = type(index)
    if oid == OID.bool || OID.integers.contains(oid) { return int64(index).map(SQLValue.integer) ?? .null }
    if OID.reals.contains(oid) { return double(index).map(SQLValue.real) ?? .null }
    return text(index).map(SQLValue.text) ?? .null
  }

  /// A plain decimal integer (the text of int2/int4/int8), without allocating a String.
  private static func parseInteger(_ bytes: UnsafePointer<CChar>) -> Int64? {
    var p = bytes
    let negative = p.pointee == CChar(UInt8(ascii: "-"))
    if negative { p += 1 }
    var value: Int64 = 0
    var digits = 0
    while p.pointee != 0 {
      let d = Int64(p.pointee) - 48
      guard d >= 0 && d <= 9 else { return nil }
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(d)
      guard !o1 && !o2 else { return nil }
      value = sum
      digits += 1
      p += 1
    }
    guard digits > 0 else { return nil }
    return negative ? -value : value
  }
}
